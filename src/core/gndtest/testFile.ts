/**
 * A `gnd test` file (graph-node's gnd/docs/gnd-test.md): one test — its name, the blocks fed to
 * the subgraph (events, mocked eth_calls) and the GraphQL assertions checked after them. Read
 * bounded and special-file-safe, checked as far as gnd would refuse it, and located: where the
 * name and each assertion sit in the text, for the editor to show a result at its assertion.
 */
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { FileReadError, readTextFile } from '../files';
import { MAX_JSON_DEPTH, tooDeepAt } from '../json';

export interface GndTestEvent {
  /** The contract, lowercase hex. */
  address: string;
  /** The full signature with `indexed`: `Transfer(address indexed from, address indexed to, uint256 value)`. */
  event: string;
  params?: Record<string, unknown>;
  /** Default: keccak(block number ‖ log index). */
  txHash?: string;
}

export interface GndTestEthCall {
  address: string;
  /** `balanceOf(address)(uint256)`: the inputs, then the outputs. */
  function: string;
  params: unknown[];
  returns: unknown[];
  reverts?: boolean;
}

export interface GndTestBlock {
  number?: number;
  hash?: string;
  timestamp?: number;
  baseFeePerGas?: string;
  events?: GndTestEvent[];
  ethCalls?: GndTestEthCall[];
  getBalanceCalls?: { address: string; value: string }[];
  hasCodeCalls?: { address: string; hasCode: boolean }[];
}

export interface GndTestAssertion {
  query: string;
  /** The query's `data`; arrays are compared as sets. */
  expected: unknown;
}

export interface GndTestFile {
  name: string;
  blocks?: GndTestBlock[];
  assertions?: GndTestAssertion[];
}

/** A stretch of the file's text: [offset, offset + length). */
export interface TextSpan {
  offset: number;
  length: number;
}

/** Where a test's parts are in its text. */
export interface TestFileLocations {
  /** The name's string value. */
  name?: TextSpan;
  /** Each assertion object, and its query's string value, in the file's order. */
  assertions: { span: TextSpan; query?: TextSpan }[];
}

export interface ReadTestFile {
  file: string;
  test: GndTestFile;
  locations: TestFileLocations;
}

/** A test file bigger than any real one: a captured demo of 1,006 transfers is about 1 MB. */
export const TEST_FILE_CAP = 64 * 1024 * 1024;

/** A test file that cannot be run: the message names the file and says why, in one line. */
export class TestFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
    /** The name, when the file had one before it went wrong. */
    readonly testName?: string,
  ) {
    super(message);
  }
}

/** Reads and checks one test file; throws TestFileError. */
export function readTestFile(file: string): ReadTestFile {
  let text: string;
  try {
    text = readTextFile(file, TEST_FILE_CAP);
  } catch (err) {
    throw new TestFileError(file, err instanceof FileReadError ? err.message : `${file} cannot be read: ${String(err)}`);
  }
  return parseTestFile(file, text);
}

/** Checks a test file's text as gnd would read it; throws TestFileError. */
export function parseTestFile(file: string, text: string): ReadTestFile {
  const deep = tooDeepAt(text, MAX_JSON_DEPTH.response);
  if (deep >= 0) throw new TestFileError(file, `${file} is not a test file: its JSON nests deeper than ${MAX_JSON_DEPTH.response} levels (at offset ${deep})`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new TestFileError(file, `${file} is not valid JSON: ${(err as Error).message}`);
  }
  const problem = shapeProblem(value);
  const name = isObject(value) && typeof value.name === 'string' ? value.name : undefined;
  if (problem) throw new TestFileError(file, `${file} is not a gnd test file: ${problem}`, name);
  return { file, test: value as GndTestFile, locations: locateTest(text) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What gnd would refuse in the file's shape (only what the results need: the name and the assertions), or undefined. */
function shapeProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'it holds no object ({"name", "blocks", "assertions"})';
  if (typeof value.name !== 'string') return '"name" is missing or not a string';
  if (value.blocks !== undefined && !Array.isArray(value.blocks)) return '"blocks" is not a list';
  if (value.assertions === undefined) return undefined;
  if (!Array.isArray(value.assertions)) return '"assertions" is not a list';
  for (const [i, a] of value.assertions.entries()) {
    if (!isObject(a) || typeof a.query !== 'string') return `assertion ${i + 1} has no "query" string`;
    if (!('expected' in a)) return `assertion ${i + 1} has no "expected"`;
  }
  return undefined;
}

// ---- Where things are in the text: a small JSON reader that keeps offsets (the text is valid JSON here). ----

interface Located {
  span: TextSpan;
  /** An object's members, by key (the last one wins, as in JSON.parse). */
  members?: Map<string, Located>;
  items?: Located[];
}

/** Where the name and each assertion are in a test file's (valid JSON) text. */
export function locateTest(text: string): TestFileLocations {
  const root = new JsonLocator(text).value();
  const assertions = root.members?.get('assertions')?.items ?? [];
  return {
    name: root.members?.get('name')?.span,
    assertions: assertions.map((a) => ({ span: a.span, query: a.members?.get('query')?.span })),
  };
}

/** Reads valid JSON once from the start, remembering each value's span (strings, numbers and literals are skipped whole). */
class JsonLocator {
  private at = 0;
  constructor(private readonly text: string) {}

  private space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at])) this.at++;
  }

  value(): Located {
    this.space();
    const start = this.at;
    const c = this.text[this.at];
    const located: Located = { span: { offset: start, length: 0 } };
    if (c === '{') {
      located.members = new Map();
      this.at++;
      for (this.space(); this.text[this.at] !== '}' && this.at < this.text.length; this.space()) {
        const keyStart = this.at;
        this.string();
        const key = JSON.parse(this.text.slice(keyStart, this.at)) as string;
        this.space();
        this.at++; // :
        located.members.set(key, this.value());
        this.space();
        if (this.text[this.at] === ',') this.at++;
      }
      this.at++;
    } else if (c === '[') {
      located.items = [];
      this.at++;
      for (this.space(); this.text[this.at] !== ']' && this.at < this.text.length; this.space()) {
        located.items.push(this.value());
        this.space();
        if (this.text[this.at] === ',') this.at++;
      }
      this.at++;
    } else if (c === '"') {
      this.string();
    } else {
      while (this.at < this.text.length && !',]} \t\n\r'.includes(this.text[this.at])) this.at++;
    }
    located.span.length = this.at - start;
    return located;
  }

  private string(): void {
    for (this.at++; this.at < this.text.length && this.text[this.at] !== '"'; this.at++) if (this.text[this.at] === '\\') this.at++;
    this.at++;
  }
}

// ---- Finding the files: as gnd does. ----

/** The folder gnd reads tests from by default, beside the manifest. */
export const DEFAULT_TEST_FOLDER = 'tests';

/** How many test files a folder may give: far above any real suite, bounded against a wrong folder (a home folder). */
export const MAX_TEST_FILES = 10_000;

/** No test files where they were looked for: the message says where, and what gnd takes. */
export class NoTestFilesError extends Error {}

/**
 * The test files to run, absolute and sorted as gnd sorts them: each of `given` (a file, or a
 * folder searched through) resolved from `cwd`, or by default the `tests/` folder beside the
 * manifest. In a folder, gnd takes `*.json` (so `*.test.json`) whose names start with a letter or
 * digit, in its subfolders too. Throws NoTestFilesError when there is none, or a path is missing.
 */
export function findTestFiles(manifest: string, given?: readonly string[], cwd: string = process.cwd()): string[] {
  const roots = given?.length ? given.map((g) => path.resolve(cwd, g)) : [path.join(path.dirname(path.resolve(cwd, manifest)), DEFAULT_TEST_FOLDER)];
  const files: string[] = [];
  for (const root of roots) {
    let isDir: boolean;
    try {
      isDir = statSync(root).isDirectory();
    } catch {
      throw new NoTestFilesError(
        given?.length ? `${root} does not exist` : `no tests: ${root} does not exist (write gnd test files there, *.json, or capture one with \`chaindeck subgraph capture-test\`)`,
      );
    }
    if (!isDir) files.push(root);
    else walk(root, files);
  }
  const unique = [...new Set(files)].sort();
  if (unique.length === 0) throw new NoTestFilesError(`no test files (*.json) in ${roots.join(', ')}`);
  return unique;
}

function walk(dir: string, files: string[], depth = 0): void {
  if (depth > 16) return; // a link cycle, or a folder no suite has
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    throw new NoTestFilesError(`${dir} cannot be read: ${(err as Error).message}`);
  }
  for (const entry of entries) {
    if (!/^[\p{L}\p{N}]/u.test(entry.name)) continue;
    const full = path.join(dir, entry.name);
    let stat;
    try {
      stat = statSync(full);
    } catch {
      continue; // a dangling link
    }
    if (stat.isDirectory()) walk(full, files, depth + 1);
    else if (stat.isFile() && entry.name.endsWith('.json')) files.push(full);
    if (files.length > MAX_TEST_FILES) throw new NoTestFilesError(`more than ${MAX_TEST_FILES} test files under ${dir}: name the files or folder to run`);
  }
}
