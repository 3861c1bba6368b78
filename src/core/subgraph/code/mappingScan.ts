/**
 * A light scan of an AssemblyScript mapping file: the functions it exports (graph-node calls
 * handlers by their exported name) and what it imports. Not a compiler: comments are blanked
 * out, then a few patterns are matched; good enough for `export function handleX(`.
 */

export interface ImportedName {
  /** The name as exported by the module (`Approval` in `Approval as ApprovalEvent`). */
  name: string;
  /** The local name. */
  local: string;
  start: number;
  end: number;
}

export interface ImportStatement {
  from: string;
  names: ImportedName[];
  start: number;
  end: number;
}

export interface MappingScan {
  /** Names exported directly (`export function`, `export { … }`). */
  exports: Set<string>;
  /** Modules re-exported wholesale (`export * from './x'`), as written. */
  exportAll: string[];
  imports: ImportStatement[];
}

/** Comments (to blank) and string literals (to keep, as they may hold `//`). */
const COMMENT_OR_STRING = /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\[\s\S]|[^`\\])*`/g;

/** The text with comments replaced by spaces (newlines kept), so offsets stay valid. */
export function blankComments(text: string): string {
  return text.replace(COMMENT_OR_STRING, (m) => (m[0] === '/' ? m.replace(/[^\n]/g, ' ') : m));
}

const IDENT = '[A-Za-z_$][\\w$]*';

export function scanMapping(text: string): MappingScan {
  const code = blankComments(text);
  const exports = new Set<string>();
  for (const m of code.matchAll(new RegExp(`\\bexport\\s+(?:declare\\s+)?function\\s*\\*?\\s*(${IDENT})`, 'g'))) exports.add(m[1]);
  for (const m of code.matchAll(/\bexport\s*\{([^}]*)\}/g)) {
    for (const spec of m[1].split(',')) {
      const parts = spec.trim().split(/\s+as\s+/);
      const name = (parts[1] ?? parts[0]).trim();
      if (name) exports.add(name);
    }
  }
  const exportAll = [...code.matchAll(/\bexport\s*\*\s*from\s*(['"])([^'"\n]*)\1/g)].map((m) => m[2]);
  const imports: ImportStatement[] = [];
  for (const m of code.matchAll(/\bimport\s*\{([^}]*)\}\s*from\s*(['"])([^'"\n]*)\2/g)) {
    const listStart = m.index! + m[0].indexOf('{') + 1;
    const names: ImportedName[] = [];
    for (const spec of m[1].matchAll(new RegExp(`(${IDENT})(?:\\s+as\\s+(${IDENT}))?`, 'g'))) {
      const start = listStart + spec.index!;
      names.push({ name: spec[1], local: spec[2] ?? spec[1], start, end: start + spec[1].length });
    }
    imports.push({ from: m[3], names, start: m.index!, end: m.index! + m[0].length });
  }
  return { exports, exportAll, imports };
}

/** Names of the functions a mapping exports, for completing `handler:` values. */
export function handlerNames(text: string): string[] {
  return [...scanMapping(text).exports].sort();
}
