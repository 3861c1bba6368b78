/**
 * Where a mapping aborted, from graph-node's fatal error text: "Mapping aborted at
 * src/mapping.ts, line 23, column 3, with message: …" names the source line (graph-ts's `abort`
 * carries the AssemblyScript file, line and column). Other errors (a store error, a trap without
 * a location) have none.
 */
export interface MappingLocation {
  /** The mapping file as the compiler named it (relative to the subgraph's folder). */
  file: string;
  /** 1-based, as written. */
  line: number;
  column: number;
  /** The abort's own message, when it gave one. */
  message?: string;
}

const ABORT = /Mapping aborted at (.+?), line (\d+), column (\d+)(?:, with message: ([\s\S]*?))?(?:\s+wasm backtrace:|\s+in handler `|$)/;

export function mappingLocation(errorText: string): MappingLocation | undefined {
  const m = ABORT.exec(errorText);
  if (!m) return undefined;
  const message = m[4]?.trim();
  return { file: m[1].trim(), line: Number(m[2]), column: Number(m[3]), ...(message ? { message } : {}) };
}
