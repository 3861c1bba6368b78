/**
 * The name a misspelt one most likely meant, among the names that exist: a handler the mapping
 * exports, an event of the ABI, an entity of the schema, an ABI of the data source. The quick
 * fix "Change to …" is offered first when there is one.
 */
import { closest } from './text';

/** Names compared past a typo's reach: the same bound per word that `closest` keeps. */
const MAX_CANDIDATES = 500;
/** Longer names are only matched as typos: the shared-run search is quadratic in the length. */
const MAX_KEY = 64;
/** A shared run shorter than this is too short a word to tell names apart. */
const MIN_RUN = 6;
/** What the shorter name may have beside the shared run: an affix like "on", not a word like "foo" (handleFoo is not handleTransfer). */
const MAX_LEFT_OVER = 2;

/**
 * A typo of one of `candidates` (a few edits, see `closest`), else the one candidate sharing a
 * run of letters with `word` that is all of the shorter name but two letters at most, case and
 * `_`/`-` ignored:
 * handleTransferEvent → handleTransfer, onTransfer → handleTransfer, handle_transfer →
 * handleTransfer, TokenTransfer → Transfer. Two candidates sharing as long a run: no guess.
 */
export function nearMatch(word: string, candidates: Iterable<string>): string | undefined {
  const list: string[] = [];
  for (const c of candidates) if (c !== word && list.push(c) >= MAX_CANDIDATES) break;
  return closest(word, list) ?? sharedRun(word, list);
}

function sharedRun(word: string, list: readonly string[]): string | undefined {
  const key = keyOf(word);
  if (key.length < MIN_RUN || key.length > MAX_KEY) return undefined;
  let best: string | undefined;
  let bestRun = 0;
  let tied = false;
  for (const candidate of list) {
    const other = keyOf(candidate);
    if (other.length < MIN_RUN || other.length > MAX_KEY) continue;
    const run = longestCommonRun(key, other);
    if (run < MIN_RUN || Math.min(key.length, other.length) - run > MAX_LEFT_OVER) continue;
    if (run > bestRun) [best, bestRun, tied] = [candidate, run, false];
    else if (run === bestRun) tied = true;
  }
  return tied ? undefined : best;
}

/** Lower case, letters and digits only: the spelling of a name without its case style. */
function keyOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The length of the longest run of characters both strings contain. */
function longestCommonRun(a: string, b: string): number {
  let prev = new Uint16Array(b.length + 1);
  let cur = new Uint16Array(b.length + 1);
  let best = 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? prev[j - 1] + 1 : 0;
      if (cur[j] > best) best = cur[j];
    }
    [prev, cur] = [cur, prev];
  }
  return best;
}
