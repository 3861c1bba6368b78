/**
 * The text of "Capture Test from Blocks…" (no `vscode`, so a unit test pins it): the block range
 * checked as it is typed, and the data sources' lines its code lenses sit on.
 */

/** The largest block number taken: beyond it a number is a typo, not a block. */
const MAX_BLOCK = Number.MAX_SAFE_INTEGER;

/** The block number the text is, or undefined. Decimal or 0x hex, as block explorers show them. */
export function parseBlock(text: string): number | undefined {
  const t = text.trim().replace(/_/g, '');
  const n = /^\d+$/.test(t) ? Number(t) : /^0x[0-9a-f]+$/i.test(t) ? Number.parseInt(t.slice(2), 16) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 0 && n <= MAX_BLOCK ? n : undefined;
}

/** What is wrong with the text as a block number (the first of the range: `from` undefined), or undefined. */
export function blockProblem(text: string, from?: number): string | undefined {
  if (!text.trim()) return 'Give a block number.';
  const n = parseBlock(text);
  if (n === undefined) return `"${text.trim().slice(0, 40)}" is not a block number: give a whole number such as 18500000 (or 0x…).`;
  if (from !== undefined && n < from) return `The last block comes before the first (${from}): give ${from} or a later block.`;
  return undefined;
}

/** The line of each data source's `name:`, in order (its first, before its ABIs' names). */
export function dataSourceLines(text: string, names: readonly (string | undefined)[]): Map<string, number> {
  const lines = text.split('\n');
  const found = new Map<string, number>();
  for (const name of names) {
    if (!name || found.has(name)) continue;
    const at = lines.findIndex(
      (line) =>
        line
          .replace(/^\s*-?\s*/, '')
          .replace(/\s+$/, '')
          .replace(/^name:\s*["']?(.*?)["']?$/, '$1') === name && /^\s*-?\s*name:/.test(line),
    );
    if (at >= 0) found.set(name, at);
  }
  return found;
}
