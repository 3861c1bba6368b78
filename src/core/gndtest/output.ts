/**
 * gnd test's printed report read back into results (gnd 0.45 has no machine-readable output).
 * Per file: `→ Running <path>`, then `  ✔ <name>` or `  ✘ <name>` (or `  ✘ Failed to parse: …`,
 * `  ✘ <name> - Error: …`), an optional `    Handler error: …`, and per assertion `    ✔ <query>`
 * or `    ✘ <query>`. After every file a `Failures:` section: per failed assertion, in the same
 * order, `  ● <name> →`, `    Query: <query>`, `    Diff: (-) expected (+) actual` and the pretty
 * JSON lines marked `      - `, `      + ` or `        ` (both). A query may span lines, so the
 * files' own queries say how many lines each takes. The expected value is the file's; the actual
 * one is put back together from the diff's `+` and shared lines.
 */
import { inertText } from '../inert';
import type { AssertionResult } from './results';

/** What the parser knows of a test before gnd runs it: from its file. */
export interface KnownTest {
  /** The path as given to gnd (it prints it back after `Running`). */
  file: string;
  name: string;
  assertions: { query: string; expected: unknown }[];
}

/** What gnd said of one test. */
export interface ParsedTest {
  passed: boolean;
  assertions: AssertionResult[];
  /** A handler error, or why gnd could not run it (a param it could not encode, a file it could not parse). */
  error?: string;
}

const RUNNING = /^\S+ Running (.+)$/u;
const TEST_LINE = /^ {2}([✔✘]) (.*)$/u;
const ASSERTION_LINE = /^ {4}([✔✘]) (.*)$/u;
const HANDLER_ERROR = /^ {4}Handler error: (.*)$/u;
const SUMMARY = /^Tests: \d+ passed, \d+ failed$/;

/** gnd's report (stdout) as results per file given in `known`; a file gnd did not report is not in the map. */
export function parseGndOutput(text: string, known: readonly KnownTest[]): Map<string, ParsedTest> {
  const lines = inertText(text).split('\n');
  const byFile = new Map(known.map((k) => [k.file, k]));
  const results = new Map<string, ParsedTest>();
  /** The failed assertions in the order gnd prints their diffs. */
  const failures: { test: KnownTest; result: ParsedTest; index: number }[] = [];
  let current: { test: KnownTest; result: ParsedTest; seenHead: boolean } | undefined;

  /** Whether the query's lines start at `i` (the first after `prefix`); returns how many lines it took, or 0. */
  // gnd prints a name or query as the file holds it; here both sides are read inert, so one with escapes or line breaks still matches.
  const queryAt = (i: number, prefix: string, query: string, suffix = ''): number => {
    const wanted = `${prefix}${inertText(query)}${suffix}`.split('\n');
    for (let k = 0; k < wanted.length; k++) if (lines[i + k] !== wanted[k]) return 0;
    return wanted.length;
  };

  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line === 'Failures:' || SUMMARY.test(line)) break;
    const running = RUNNING.exec(line);
    if (running) {
      const test = byFile.get(running[1]);
      current = undefined;
      if (!test) continue;
      const result: ParsedTest = { passed: false, assertions: [] };
      results.set(test.file, result);
      current = { test, result, seenHead: false };
      continue;
    }
    if (!current) continue;
    const { test, result } = current;
    const head = TEST_LINE.exec(line);
    if (head && !current.seenHead) {
      current.seenHead = true;
      const rest = head[2];
      if (head[1] === '✔') result.passed = true;
      else if (rest.startsWith('Failed to parse: ')) result.error = `gnd could not read the file: ${rest.slice('Failed to parse: '.length)}`;
      else if (rest.startsWith(`${inertText(test.name)} - Error: `)) result.error = rest.slice(inertText(test.name).length + ' - Error: '.length);
      continue;
    }
    const handlerError = HANDLER_ERROR.exec(line);
    if (handlerError) {
      result.error = `Handler error: ${handlerError[1]}`;
      continue;
    }
    const assertion = ASSERTION_LINE.exec(line);
    if (assertion) {
      const index = result.assertions.length;
      const expected = test.assertions[index];
      const prefix = line.slice(0, 6);
      const taken = expected ? queryAt(i, prefix, expected.query) : 0;
      const passed = assertion[1] === '✔';
      result.assertions.push({ query: expected?.query ?? assertion[2], passed });
      if (!passed) failures.push({ test, result, index });
      if (taken > 1) i += taken - 1;
    }
  }

  // The Failures section: each failure's query and diff, in the order the ✘ lines came.
  let next = 0;
  for (; i < lines.length; i++) {
    if (SUMMARY.test(lines[i])) break;
    if (!lines[i].startsWith('  ● ')) continue;
    // The same order as the ✘ lines; a name that does not match the next one is looked for further on (a name may span lines).
    let at = next;
    while (at < failures.length && !queryAt(i, '  ● ', failures[at].test.name, ' →')) at++;
    if (at >= failures.length) continue;
    next = at + 1;
    const { test, result, index } = failures[at];
    const query = test.assertions[index]?.query ?? '';
    i += queryAt(i, '  ● ', test.name, ' →');
    const taken = queryAt(i, '    Query: ', query);
    i += Math.max(taken, 1);
    if (!lines[i]?.startsWith('    Diff: ')) {
      i--;
      continue;
    }
    const actual: string[] = [];
    for (i++; i < lines.length; i++) {
      const diffLine = lines[i];
      if (diffLine.startsWith('      + ') || diffLine.startsWith('        ')) actual.push(diffLine.slice(8));
      else if (!diffLine.startsWith('      - ')) break;
    }
    i--;
    result.assertions[index] = { query, passed: false, expected: test.assertions[index]?.expected, actual: parseOr(actual.join('\n')) };
  }
  return results;
}

/** The JSON value of `text`, or the text itself when it is none (a diff gnd cut short). */
function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The line that says why gnd ended without reporting a test: its last `Error: …` line (gnd's
 * own words, e.g. `Failed to resolve built manifest path — did you run 'gnd build'?`), else a
 * panic's message, else its last line.
 */
export function gndFailureLine(output: string): string | undefined {
  const lines = inertText(output)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const error = [...lines].reverse().find((l) => l.startsWith('Error: '));
  if (error) return error.slice('Error: '.length);
  const panic = lines.findIndex((l) => /panicked at/.test(l));
  if (panic >= 0) return `gnd panicked: ${lines[panic + 1] ?? lines[panic]}`;
  return lines.at(-1);
}
