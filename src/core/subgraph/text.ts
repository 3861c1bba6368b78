/** Text helpers shared by the subgraph rules: offsets ↔ positions, near-miss suggestions, names. */
import type { Position, Range } from './types';

/** Maps string offsets of one text to 0-based line/character positions (binary search). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  position(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: at - this.starts[lo] };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  /** Offset of a position; clamps to the text. */
  offset(pos: Position): number {
    const line = Math.max(0, Math.min(pos.line, this.starts.length - 1));
    const lineEnd = line + 1 < this.starts.length ? this.starts[line + 1] - 1 : this.text.length;
    return Math.min(this.starts[line] + Math.max(0, pos.character), lineEnd);
  }

  /** The empty range at the end of the text, where appended content goes. */
  end(): Range {
    return this.range(this.text.length, this.text.length);
  }
}

/**
 * The candidate closest to `word`, when it is close enough to be a typo: at most a third of the
 * word's length away (at least 1, at most 3 edits), or equal ignoring case.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length > 200) return undefined;
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = limit + 1;
  let compared = 0;
  let visited = 0;
  for (const c of candidates) {
    // Bounds per word: thousands of unknown names against thousands of candidates was quadratic
    // (17 s for 4,000 × 4,000); past them a suggestion may be missed, never a finding.
    if (++visited > MAX_VISITED) break;
    if (c === word || Math.abs(c.length - word.length) > limit) continue;
    if (++compared > MAX_COMPARED) break;
    const d = boundedDistance(lower, c.toLowerCase(), bestDistance - 1);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
      if (d === 0) break;
    }
  }
  return best;
}

const MAX_COMPARED = 500;
const MAX_VISITED = 2000;

/**
 * Levenshtein distance between two lower-case strings when it is at most `max`, else max + 1:
 * only the diagonal band of width 2·max + 1 is computed, and a row beyond `max` stops it.
 */
export function boundedDistance(s: string, t: string, max: number): number {
  if (Math.abs(s.length - t.length) > max) return max + 1;
  const over = max + 1;
  let prev = new Int32Array(t.length + 1);
  let cur = new Int32Array(t.length + 1);
  for (let j = 0; j <= t.length; j++) prev[j] = j <= max ? j : over;
  for (let i = 1; i <= s.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(t.length, i + max);
    cur.fill(over);
    cur[0] = i <= max ? i : over;
    let rowMin = cur[0];
    for (let j = from; j <= to; j++) {
      const d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (s.charCodeAt(i - 1) === t.charCodeAt(j - 1) ? 0 : 1));
      cur[j] = d > over ? over : d;
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > max) return over;
    [prev, cur] = [cur, prev];
  }
  return prev[t.length] > max ? over : prev[t.length];
}

/** `; did you mean 'x'?` or nothing. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : `; did you mean '${c}'?`;
}

/** A one-line, length-limited rendering of a value for messages. */
export function brief(value: string, max = 60): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
