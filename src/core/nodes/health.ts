/**
 * A node's health in one word for the Nodes tree and the status bar: a node whose every live fact
 * failed is a failing node, with its error said once (a refused connection fails the client
 * version, the latest block and the chain alike: one message, not three rows of it).
 */
import type { LiveFacts } from './protocols';

/** The node's one failure when every fact failed (distinct messages joined), else undefined. */
export function commonFailure(facts: LiveFacts): string | undefined {
  const all = Object.values(facts).filter((f) => f !== undefined);
  if (!all.length || !all.every((f) => 'error' in f)) return undefined;
  return [...new Set(all.map((f) => ('error' in f ? f.error : '')))].join('; ');
}

/** The first sentence of an error, at most `max` characters: what fits in a tree item's description. */
export function shortError(text: string, max = 90): string {
  const line = text
    .split('\n')[0]
    .trim()
    .replace(/(\.)\s.*$/s, '$1');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
