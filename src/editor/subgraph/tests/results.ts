/**
 * What a run's results mean for the Test Explorer, without VS Code: which assertion of a test file
 * each result belongs to (gnd names an assertion by its query, printed with its line breaks
 * folded), and the expected/actual texts a diff shows. Kept apart from the controller so a unit
 * test can pin it.
 */
import { diffJson, summaryLine, type AssertionResult, type TestResult } from '../../../core/gndtest/results';

/** A query as gnd prints it and as the file holds it compare equal: whitespace runs are one space. */
export function sameQuery(a: string, b: string): boolean {
  const fold = (q: string) => q.replace(/\s+/g, ' ').trim();
  return fold(a) === fold(b);
}

/**
 * The result of each of the file's assertions, in the file's order: the first result not taken yet
 * whose query is the same, else the one at the same position (a query gnd printed otherwise, e.g.
 * cut); undefined where gnd said nothing of it (the test ended early at a handler error).
 */
export function resultsByAssertion(queries: readonly string[], results: readonly AssertionResult[]): (AssertionResult | undefined)[] {
  const taken = new Set<number>();
  const byQuery = queries.map((query) => {
    const i = results.findIndex((r, j) => !taken.has(j) && sameQuery(r.query, query));
    if (i >= 0) taken.add(i);
    return i >= 0 ? i : undefined;
  });
  return byQuery.map((i, position) => {
    if (i !== undefined) return results[i];
    if (position < results.length && !taken.has(position)) {
      taken.add(position);
      return results[position];
    }
    return undefined;
  });
}

/** The JSON a diff shows for one side (core's diffJson: keys sorted, arrays as given); empty where gnd gave none. */
export function diffSide(value: unknown): string {
  return value === undefined ? '' : diffJson(value);
}

/** The result of a file among a run's results: the one whose file is this path. */
export function resultOfFile(results: readonly TestResult[], file: string): TestResult | undefined {
  return results.find((r) => r.file === file);
}

/** The summary line a run's output ends with (core's, as the CLI prints it). */
export function runSummary(results: readonly TestResult[], ms: number): string {
  return summaryLine(results, ms);
}
