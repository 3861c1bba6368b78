/**
 * TEMPORARY (deleted before merging): the gndtest core's interfaces as agreed, until
 * src/core/gndtest/{results,run,database,testFile}.ts and capture/ land. Every function fails.
 */
export interface AssertionResult {
  query: string;
  passed: boolean;
  expected?: unknown;
  actual?: unknown;
}
export interface TestResult {
  file: string;
  name: string;
  passed: boolean;
  assertions: AssertionResult[];
  error?: string;
  durationMs?: number;
}
export type BuildStep = (signal: AbortSignal, out: (line: string) => void) => Promise<void>;
export interface TestDatabase {
  readonly url: string;
  stop(): Promise<void>;
}
const notYet = () => Promise.reject(new Error('subgraph tests are not available in this build yet'));
export function runSubgraphTests(_options: {
  manifest: string;
  files?: string[];
  skipBuild?: boolean;
  gnd: string;
  postgresUrl: string;
  build?: BuildStep;
  signal?: AbortSignal;
  out?: (line: string) => void;
  timeoutMs?: number;
}): Promise<TestResult[]> {
  return notYet();
}
export function startTestDatabase(_options: { dataDir?: string; signal?: AbortSignal }): Promise<TestDatabase> {
  return notYet();
}
export function captureTest(_options: {
  manifest: string;
  rpcUrl: string;
  from: number;
  to: number;
  out?: string;
  gnd: string;
  build?: BuildStep;
  signal?: AbortSignal;
  progress?: (message: string) => void;
}): Promise<{ file: string; blocks: number; events: number; ethCalls: number; entities: number }> {
  return notYet();
}

export interface Span {
  start: number;
  end: number;
}
export interface TestFileOutline {
  name?: string;
  nameAt?: Span;
  assertions: { query: string; at: Span }[];
}
/** The top-level "name" and each element of "assertions", with where they sit in the text. */
export function outlineTestFile(text: string): TestFileOutline {
  const parsed = JSON.parse(text) as { name?: unknown; assertions?: unknown };
  const queries = Array.isArray(parsed.assertions) ? parsed.assertions.map((a) => (typeof (a as { query?: unknown })?.query === 'string' ? (a as { query: string }).query : '')) : [];
  const outline: TestFileOutline = { name: typeof parsed.name === 'string' ? parsed.name : undefined, assertions: [] };
  let depth = 0;
  let key: string | undefined;
  let inAssertions = false;
  let assertionStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const after = text.slice(j + 1).match(/^\s*:/);
      if (depth === 1 && after) key = JSON.parse(text.slice(i, j + 1)) as string;
      else if (depth === 1 && key === 'name') outline.nameAt = { start: i, end: j + 1 };
      i = j;
    } else if (c === '{' || c === '[') {
      depth++;
      if (depth === 2 && key === 'assertions' && c === '[') inAssertions = true;
      if (depth === 3 && inAssertions) assertionStart = i;
    } else if (c === '}' || c === ']') {
      if (depth === 3 && inAssertions && assertionStart >= 0) {
        outline.assertions.push({ query: queries[outline.assertions.length] ?? '', at: { start: assertionStart, end: i + 1 } });
        assertionStart = -1;
      }
      if (depth === 2) inAssertions = false;
      depth--;
    }
  }
  return outline;
}
