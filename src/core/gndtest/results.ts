/**
 * What a run of subgraph tests comes to, per test file and per assertion: the one shape the CLI
 * prints (text or JSON) and the editor's Test Explorer shows.
 */

/** One GraphQL assertion of a test; `expected` and `actual` are there when it failed and gnd showed both. */
export interface AssertionResult {
  query: string;
  passed: boolean;
  expected?: unknown;
  actual?: unknown;
}

/** One test file (gnd runs one test per file). */
export interface TestResult {
  /** The test file as given or found (absolute in the core API; the CLI prints it relative to its working folder). */
  file: string;
  /** The file's "name" (its file name when it could not be read). */
  name: string;
  passed: boolean;
  assertions: AssertionResult[];
  /** One line: a handler error, or why the test could not run (bad JSON, a timeout, gnd failing). */
  error?: string;
  durationMs?: number;
}

/**
 * One side of an assertion's diff: pretty JSON with every object's keys sorted. gnd prints the
 * actual value so, and a difference of key order alone is none (the CLI's diff and the Test
 * Explorer's both show this).
 */
export function diffJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value), null, 2) ?? 'null';
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

/** The line a run ends with, as Jest's and Foundry's do: `Tests: N passed, M failed (T s)`. */
export function summaryLine(results: readonly TestResult[], ms?: number): string {
  const passed = results.filter((r) => r.passed).length;
  return `Tests: ${passed} passed, ${results.length - passed} failed${ms === undefined ? '' : ` (${(ms / 1000).toFixed(1)} s)`}`;
}
