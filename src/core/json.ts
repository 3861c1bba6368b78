/**
 * A bound on how deeply JSON from outside may nest (params the user types, request files, node
 * and graph-node answers). JSON.parse copes with any depth, but JSON.stringify and every
 * recursive walker after it overflow the stack at a few thousand levels: such text is refused
 * up front with a position, by one linear scan that skips strings.
 */

export const MAX_JSON_DEPTH = {
  /** Params and request files: eth_call with state overrides needs 4 levels. */
  params: 64,
  /** Answers from nodes and graph-node: far above any real result, far below the stack. */
  response: 512,
} as const;

/** The offset of the `[` or `{` opening level `max + 1`, or -1 when the text stays within it. */
export function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92 /* \ */) i++;
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return i;
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--;
    }
  }
  return -1;
}
