/**
 * Where a finding belongs in a Solidity file, for the editor's Problems: the declaration of the
 * variable it names (a state variable of the contract, or a member of its ERC-7201 namespace
 * struct), found in the source text; else the `contract X` line (a variable of a base in another
 * file, or one the new version no longer declares).
 */
import { blankCommentsAndStrings, contractDeclarations } from '../soliditySource';
import type { CompatFinding } from './rules';

export interface FindingPlace {
  finding: CompatFinding;
  /** Zero-based line and columns of the name (or of the `contract` keyword). */
  line: number;
  start: number;
  end: number;
  /** Whether the variable itself was found (false: the contract's line stands in). */
  exact: boolean;
}

/** One line for Problems: "inserted fee: nothing → uint256 fee at slot 1". */
export function findingText(f: CompatFinding): string {
  return `${f.kind} ${f.path}: ${f.before ?? 'nothing'} → ${f.after ?? 'nothing'}`;
}

/** The index of the `}` that closes the `{` at `open` in blanked text, or the text's end. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return text.length;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Offsets of `name` declared at the top level of the block [from, to) (not inside a function or struct): `… name;` or `… name = …`. */
function declarationIn(blank: string, from: number, to: number, name: string): number | undefined {
  const re = new RegExp(`\\b${escape(name)}\\s*(;|=[^=>])`, 'g');
  re.lastIndex = from;
  for (let m = re.exec(blank); m && m.index < to; m = re.exec(blank)) {
    let depth = 0;
    for (let i = from; i < m.index; i++) depth += blank[i] === '{' ? 1 : blank[i] === '}' ? -1 : 0;
    if (depth === 1) return m.index;
  }
  return undefined;
}

/** The places of findings about contract `contractName` in `text`. */
export function placeFindings(text: string, contractName: string, findings: readonly CompatFinding[]): FindingPlace[] {
  const blank = blankCommentsAndStrings(text);
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offsetOf = (line: number, character: number) => starts[line] + character;
  const position = (offset: number) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
    return { line, character: offset - starts[line] };
  };
  const declaration = contractDeclarations(text).find((d) => d.name === contractName);
  const fallback = declaration ? { line: declaration.line, start: declaration.character, end: declaration.character + 'contract'.length } : { line: 0, start: 0, end: 0 };
  const body = declaration ? blank.indexOf('{', offsetOf(declaration.line, declaration.character)) : -1;
  const bodyEnd = body >= 0 ? closing(blank, body) : -1;

  /** The struct carrying `@custom:storage-location erc7201:<id>` in a comment, the contract's own first: its `{`. */
  const namespaceBody = (id: string): number | undefined => {
    const tags = [...text.matchAll(new RegExp(`@custom:storage-location\\s+erc7201:${escape(id)}(?![\\w.-])`, 'g'))];
    const tag = tags.find((t) => t.index > body && t.index < bodyEnd) ?? tags[0];
    if (!tag) return undefined;
    const struct = /\bstruct\s+[A-Za-z_$][\w$]*\s*\{/g;
    struct.lastIndex = tag.index;
    const m = struct.exec(blank);
    return m ? m.index + m[0].length - 1 : undefined;
  };

  return findings.map((finding) => {
    const at = (offset: number, name: string): FindingPlace => {
      const p = position(offset);
      return { finding, line: p.line, start: p.character, end: p.character + name.length, exact: true };
    };
    const ns = /^erc7201:(.+)$/.exec(finding.path);
    if (ns) {
      // The id may hold dots; the member is what follows the longest id that has a struct.
      const parts = ns[1].split('.');
      for (let k = parts.length; k > 0; k--) {
        const open = namespaceBody(parts.slice(0, k).join('.'));
        if (open === undefined) continue;
        const member = parts[k]?.replace(/\[\]$/, '');
        const found = member ? declarationIn(blank, open, closing(blank, open), member) : undefined;
        if (found !== undefined) return at(found, member!);
        const struct = blank.lastIndexOf('struct', open);
        return { ...at(struct, 'struct'), exact: member === undefined };
      }
      return { finding, ...fallback, exact: false };
    }
    const top = /^[^.[]+/.exec(finding.path)?.[0] ?? finding.path;
    const found = body >= 0 ? declarationIn(blank, body, bodyEnd, top) : undefined;
    return found !== undefined ? at(found, top) : { finding, ...fallback, exact: false };
  });
}
