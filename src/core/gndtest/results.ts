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
