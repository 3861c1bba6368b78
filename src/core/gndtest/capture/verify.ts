/**
 * The check a capture ends with: the written test run once by the test runner (runSubgraphTests,
 * `gnd test` against a private Postgres) on the unchanged subgraph, built first by the toolchain.
 * A captured test that does not pass there would only mislead: the caller writes nothing and
 * shows why in one line (the handler's error, or the failed assertion and the first field that
 * differs, with both values).
 */
import { startTestDatabase } from '../database';
import type { TestResult } from '../results';
import { runSubgraphTests } from '../run';

const show = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

/**
 * Where two answers first differ: `bumps[id=0x…].amount: expected "5", got "10"`. Lists are
 * matched by their elements' ids when they have them (gnd compares lists as sets), else by place.
 */
export function firstDifference(expected: unknown, actual: unknown, at = ''): string | undefined {
  if (JSON.stringify(expected) === JSON.stringify(actual)) return undefined;
  const here = at || 'the answer';
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const id = (v: unknown) => (typeof v === 'object' && v !== null && 'id' in v ? String((v as { id: unknown }).id) : undefined);
    const byId = expected.every((v) => id(v) !== undefined) && actual.every((v) => id(v) !== undefined);
    if (byId) {
      for (const e of expected) {
        const a = actual.find((v) => id(v) === id(e));
        if (a === undefined) return `${here}: expected an element with id ${id(e)}, none came`;
        const d = firstDifference(e, a, `${at}[id=${id(e)}]`);
        if (d) return d;
      }
      const extra = actual.find((a) => !expected.some((e) => id(e) === id(a)));
      return `${here}: an element with id ${id(extra)} came that was not expected`;
    }
    if (expected.length !== actual.length) return `${here}: expected ${expected.length} elements, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(expected[i], actual[i], `${at}[${i}]`);
      if (d) return d;
    }
  }
  if (typeof expected === 'object' && expected !== null && typeof actual === 'object' && actual !== null && !Array.isArray(expected) && !Array.isArray(actual)) {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    for (const key of new Set([...Object.keys(e), ...Object.keys(a)])) {
      const d = firstDifference(e[key], a[key], at ? `${at}.${key}` : key);
      if (d) return d;
    }
  }
  return `${here}: expected ${show(expected)}, got ${show(actual)}`;
}

/** Why a test result failed, in one line. */
export function failureLine(result: TestResult): string {
  if (result.error) return result.error;
  const failed = result.assertions.find((a) => !a.passed);
  if (!failed) return 'gnd reported a failure without a failed assertion';
  const query = failed.query.replace(/\s+/g, ' ').trim();
  const where = 'expected' in failed || 'actual' in failed ? firstDifference(failed.expected, failed.actual) : undefined;
  return `${query}${where ? ` — ${where}` : ''}`;
}

/** Builds the subgraph (unless no `build` is given) and runs one test file; resolves undefined when it passes, else the reason in one line. */
export async function verifyCapturedTest(options: {
  gnd: string;
  manifest: string;
  file: string;
  build?: (signal: AbortSignal, out: (line: string) => void) => Promise<void>;
  signal?: AbortSignal;
}): Promise<string | undefined> {
  const database = await startTestDatabase({ signal: options.signal });
  try {
    const [result] = await runSubgraphTests({
      manifest: options.manifest,
      files: [options.file],
      gnd: options.gnd,
      postgresUrl: database.url,
      build: options.build,
      skipBuild: !options.build,
      signal: options.signal,
    });
    if (!result) return 'gnd ran no test';
    return result.passed ? undefined : failureLine(result);
  } finally {
    await database.stop().catch(() => undefined);
  }
}
