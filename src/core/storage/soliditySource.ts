/**
 * Where a Solidity source declares its contracts (pure): `contract X` and `abstract contract X`
 * at the start of a line, outside comments and strings, for the editor's CodeLens. Interfaces and
 * libraries hold no storage and are left out.
 */

export interface ContractDeclaration {
  name: string;
  /** Zero-based line and column of the `contract` keyword. */
  line: number;
  character: number;
}

/** The source with comments and string contents blanked (same length, newlines kept), so offsets stay. */
export function blankCommentsAndStrings(text: string): string {
  return text.replace(/\/\*[\s\S]*?(\*\/|$)|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (m) => m.replace(/[^\n]/g, ' '));
}

export function contractDeclarations(text: string): ContractDeclaration[] {
  const lines = blankCommentsAndStrings(text).split('\n');
  const out: ContractDeclaration[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*(?:abstract\s+)?)contract\s+([A-Za-z_$][\w$]*)/.exec(line);
    if (m) out.push({ name: m[2], line: i, character: m[1].length });
  });
  return out;
}
