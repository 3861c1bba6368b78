/**
 * Chaindeck's validation against the real graph CLI (@graphprotocol/graph-cli 0.98.1, offline):
 * - the tutorial subgraph passes `graph codegen` and `graph build` and gets no finding;
 * - for every broken variant of the corpus, `graph codegen` (and `graph build` where only the
 *   build sees the mistake) runs in a temporary copy; its output is parsed (never only its exit
 *   code) and every error it prints must be reported by Chaindeck, by the matching rule, at the
 *   place the CLI names; the mistakes the CLI lets through must be reported by Chaindeck;
 * - `node dist/cli.js validate` prints and exits as documented.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileSource } from '../../src/core/subgraph/fileSource';
import { parseCliPath, parseManifest, rangeOfKeyPath } from '../../src/core/subgraph/manifest/manifestDoc';
import type { Finding } from '../../src/core/subgraph/types';
import { validateSubgraph } from '../../src/core/subgraph/rules/validate';
import { replaceIn, VARIANTS, writeProject, type Edit, type Variant } from '../fixtures/subgraphs/corpus';

const root = path.resolve(__dirname, '..', '..');
const GRAPH = path.join(root, 'node_modules', '.bin', 'graph');
const PARALLEL = 2;

interface Run {
  code: number;
  output: string;
}

function exec(file: string, args: string[], cwd: string, timeout = 180_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, timeout, env: { ...process.env, FORCE_COLOR: '0' }, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

const graph = (cwd: string, ...args: string[]) => exec(GRAPH, [...args, '--skip-migrations'], cwd);

let tmp: string;

/** A copy of the tutorial, changed by `edit`, where graph-cli finds graph-ts, as in a real project. */
function project(name: string, edit: Edit = () => {}): string {
  const dir = writeProject(tmp, name.replace(/[^\w-]+/g, '-'), edit);
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** Runs `fn` over `items`, `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]);
      }
    }),
  );
  return results;
}

/** One error the graph CLI printed, with where it says it is. */
interface CliError {
  file: string;
  message: string;
  /** `Path: dataSources > 0 > …` of a manifest error. */
  path?: (string | number)[];
  /** 1-based, when the CLI gives a position. */
  line?: number;
  column?: number;
}

/** The errors in graph codegen/build output (FORCE_COLOR=0). */
function parseCliErrors(output: string): CliError[] {
  const errors: CliError[] = [];
  const lines = output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m: RegExpExecArray | null;
    if (/Error in subgraph\.yaml:$/.test(line)) {
      // Blocks of "  Path: a > b" followed by message lines indented two spaces.
      for (i++; i < lines.length && (lines[i] === '' || lines[i].startsWith('  ')); i++) {
        const p = /^ {2}Path: (.*)$/.exec(lines[i]);
        if (!p) continue;
        const message: string[] = [];
        while (i + 1 < lines.length && lines[i + 1].startsWith('  ') && !lines[i + 1].startsWith('  Path: ')) message.push(lines[++i].trim());
        errors.push({ file: 'subgraph.yaml', path: parseCliPath(p[1]), message: message.join('\n') });
      }
      i--;
    } else if (/Error in schema\.graphql:$/.test(line)) {
      // "  Entity:" then "  - message" items (a message may go on over more lines).
      for (i++; i < lines.length && (lines[i] === '' || lines[i].startsWith('  ')); i++) {
        if (!lines[i].startsWith('  - ')) continue;
        const message = [lines[i].slice(4)];
        while (i + 1 < lines.length && lines[i + 1].startsWith('  ') && !lines[i + 1].startsWith('  - ') && !/^ {2}\w+:$/.test(lines[i + 1])) message.push(lines[++i].trim());
        errors.push({ file: 'schema.graphql', message: message.join('\n').trim() });
      }
      i--;
    } else if ((m = /Invalid GraphQL schema: (.*)$/.exec(line))) {
      const at = /GraphQL request:(\d+):(\d+)/.exec(lines[i + 1] ?? '');
      errors.push({ file: 'schema.graphql', message: m[1], line: Number(at?.[1]), column: Number(at?.[2]) });
    } else if ((m = /YAMLException: (.*) \((\d+):(\d+)\)$/.exec(line))) {
      errors.push({ file: 'subgraph.yaml', message: `YAMLException: ${m[1]}`, line: Number(m[2]), column: Number(m[3]) });
    } else if (/can't be used with mappings on\s*$/.test(line) && /apiVersion less than/.test(lines[i + 1] ?? '')) {
      errors.push({ file: 'subgraph.yaml', message: `can't be used with mappings on ${lines[i + 1].trim()}` });
    } else if ((m = /^\s*Missing handlers in WASM: (.*)$/.exec(line)) && !errors.some((e) => e.message.startsWith('Missing handlers'))) {
      errors.push({ file: 'subgraph.yaml', message: `Missing handlers in WASM: ${m[1]}` });
    } else if ((m = /^✖ Failed to write compiled subgraph to build\/: (ENOENT): no such file or directory, open '(.*)'$/.exec(line))) {
      errors.push({ file: 'subgraph.yaml', message: `${m[1]}: ${path.basename(m[2])}` });
    } else if ((m = /^ERROR (TS\d+): (.*)$/.exec(line))) {
      const where = lines
        .slice(i + 1, i + 5)
        .map((l) => /^ in (.*)\((\d+),(\d+)\)$/.exec(l))
        .find(Boolean);
      errors.push({ file: where?.[1] ?? '?', message: `${m[1]}: ${m[2]}`, line: Number(where?.[2]), column: Number(where?.[3]) });
    }
  }
  return errors;
}

/** The Chaindeck rules that report what a graph CLI message says. */
const CLI_MESSAGES: [RegExp, string[]][] = [
  [/^Event with signature/, ['event-not-in-abi', 'event-signature-format']],
  [/^Call function with signature/, ['function-not-in-abi']],
  [/^File does not exist/, ['file-not-found']],
  [/^Contract address is invalid/, ['invalid-address']],
  [/^Expected string, found number/, ['unquoted-address', 'type-mismatch']],
  [/^Expected (BigInt|string|true or false|map|list|filename),/, ['type-mismatch']],
  [/^Unexpected key in map/, ['unknown-key']],
  [/^No value provided/, ['missing-key', 'missing-value']],
  [/^ABI name '.*' not found in mapping > abis/, ['abi-not-listed']],
  [/^(Could not parse ABI|No valid ABI)/, ['abi-invalid']],
  [/^More than one data source named/, ['duplicate-data-source-name']],
  [/^More than one template named/, ['duplicate-template-name']],
  [/^Conflicting networks/, ['conflicting-networks']],
  [/^Mapping has no/, ['no-handlers']],
  [/^Unexpected enum value/, ['invalid-enum']],
  [/requires `immutable` argument/, ['entity-immutable-missing']],
  [/Entity ids must be of type/, ['entity-id-type']],
  [/^Missing field: id/, ['entity-missing-id']],
  [/Unknown type '/, ['unknown-field-type']],
  [/^Defined without @entity/, ['missing-entity-directive']],
  [/@derivedFrom field '.*' does not exist/, ['derived-from-missing-field']],
  [/Lists with null elements are not supported/, ['nullable-list-element']],
  [/^Syntax Error/, ['graphql-syntax']],
  [/^YAMLException/, ['yaml-syntax']],
  [/can't be used with mappings on apiVersion less than/, ['api-version-too-old']],
  [/^Missing handlers in WASM/, ['handler-not-exported']],
  [/^TS2305/, ['mapping-import-unknown']],
  [/^TS6054/, ['generated-module-unknown']],
  [/^ENOENT/, ['file-not-found']],
];

/** The Chaindeck finding that reports a CLI error, or a reason why none does. */
function matchFinding(error: CliError, findings: Finding[], dir: string, manifestText: string): Finding | string {
  const rule = CLI_MESSAGES.find(([re]) => re.test(error.message));
  if (!rule) return `no Chaindeck rule is known for this graph CLI message: ${error.message}`;
  const candidates = findings.filter((f) => f.severity === 'error' && rule[1].includes(f.code) && path.relative(dir, f.file) === error.file);
  if (!candidates.length) return `no ${rule[1].join(' or ')} error in ${error.file}`;
  let placed = candidates;
  if (error.path) {
    // Where the CLI's key path points: from its key's line to the end of its value.
    const doc = parseManifest(manifestText);
    const key = rangeOfKeyPath(doc, error.path, 'key');
    const value = rangeOfKeyPath(doc, error.path);
    placed = candidates.filter((f) => f.range.start.line >= Math.min(key.start.line, value.start.line) && f.range.start.line <= value.end.line);
  } else if (error.line) {
    // YAML errors: js-yaml (the CLI) and the yaml package may name neighbouring lines.
    const slack = error.message.startsWith('YAMLException') ? 1 : 0;
    placed = candidates.filter((f) => Math.abs(f.range.start.line + 1 - error.line!) <= slack && (slack || f.range.start.character + 1 === error.column));
  }
  if (error.message.startsWith('Missing handlers')) placed = placed.filter((f) => f.message.includes(`'${error.message.split(': ')[1]}'`));
  return placed[0] ?? `${rule[1].join(' or ')} found, but not where the CLI says: ${JSON.stringify(error)} vs ${JSON.stringify(candidates.map((f) => f.range))}`;
}

interface Outcome {
  variant: Variant;
  dir: string;
  codegen: Run;
  build?: Run;
  findings: Finding[];
}

async function runVariant(variant: Variant): Promise<Outcome> {
  const dir = project(variant.name, (files) => variant.edit(files));
  const codegen = await graph(dir, 'codegen');
  const build = variant.build ? await graph(dir, 'build') : undefined;
  // Validated after codegen ran, as a user would: generated/ is there and fresh.
  const findings = validateSubgraph(path.join(dir, 'subgraph.yaml'), nodeFileSource()).findings;
  return { variant, dir, codegen, build, findings };
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-subgraph-cli-'));
  const build = await exec(process.execPath, ['esbuild.js'], root);
  assert.equal(build.code, 0, `node esbuild.js failed:\n${build.output}`);
});

after(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the tutorial subgraph', () => {
  test('graph codegen and graph build succeed; Chaindeck finds nothing; a schema edit makes generated code stale', async () => {
    const dir = project('tutorial');
    const codegen = await graph(dir, 'codegen');
    assert.equal(codegen.code, 0, codegen.output);
    assert.match(codegen.output, /Types generated successfully/);
    assert.ok(fs.existsSync(path.join(dir, 'generated', 'ERC20', 'ERC20.ts')) && fs.existsSync(path.join(dir, 'generated', 'schema.ts')));
    const build = await graph(dir, 'build');
    assert.equal(build.code, 0, build.output);
    assert.match(build.output, /Build completed/);
    assert.ok(fs.statSync(path.join(dir, 'build', 'ERC20', 'ERC20.wasm')).size > 1000);

    const manifest = path.join(dir, 'subgraph.yaml');
    assert.deepEqual(validateSubgraph(manifest, nodeFileSource()).findings, []);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(dir, 'schema.graphql'), later, later);
    const stale = validateSubgraph(manifest, nodeFileSource()).findings;
    assert.deepEqual(
      stale.map((f) => [f.code, f.action, f.message]),
      [['generated-stale', 'run-codegen', 'Generated code is older than ./schema.graphql; run graph codegen']],
    );
  });
});

describe('the corpus against the real graph CLI', () => {
  let outcomes: Outcome[];
  before(async () => {
    outcomes = await pool(VARIANTS, PARALLEL, runVariant);
  });

  test('every variant, as the corpus says', () => {
    const problems: string[] = [];
    for (const o of outcomes) {
      const { variant, codegen, build, findings } = o;
      const cliErrors = [...parseCliErrors(codegen.output), ...(build ? parseCliErrors(build.output) : [])];
      // A Substreams-only subgraph has nothing to generate: graph codegen says so and exits 0.
      const passed = codegen.code === 0 && /Types generated successfully|Codegeneration is not required/.test(codegen.output) && !codegen.output.includes('✖');
      const say = (s: string) => problems.push(`${variant.name}: ${s}`);
      if (variant.codegen === 'passes' && !passed) say(`graph codegen should pass, but:\n${codegen.output}`);
      if (variant.codegen === 'fails' && (passed || codegen.code === 0)) say('graph codegen should fail, but passed');
      if (build && (build.code === 0 || /Build completed/.test(build.output))) say('graph build should fail, but passed');
      if (!passed || build) {
        if (!cliErrors.length) say(`the graph CLI failed with nothing this test can read:\n${codegen.output}\n${build?.output ?? ''}`);
      }
      const manifestText = fs.readFileSync(path.join(o.dir, 'subgraph.yaml'), 'utf8');
      for (const error of cliErrors) {
        const found = matchFinding(error, findings, o.dir, manifestText);
        if (typeof found === 'string') say(`${found}\n  CLI: ${error.message}\n  Chaindeck: ${findings.map((f) => `${f.code}@${f.range.start.line + 1}`).join(', ')}`);
      }
      // What the CLI lets through, Chaindeck reports.
      for (const code of variant.errors) if (!findings.some((f) => f.code === code && f.severity === 'error')) say(`Chaindeck misses ${code}`);
      for (const code of variant.warnings ?? []) if (!findings.some((f) => f.code === code && f.severity === 'warning')) say(`Chaindeck misses warning ${code}`);
      for (const code of variant.hints ?? []) if (!findings.some((f) => f.code === code && f.severity === 'info')) say(`Chaindeck misses hint ${code}`);
      if (variant.codegen === 'passes' && !variant.build && !variant.errors.length) {
        const errors = findings.filter((f) => f.severity === 'error');
        if (errors.length) say(`Chaindeck reports errors the CLI does not: ${errors.map((f) => f.message).join('; ')}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('the CLI misses, Chaindeck reports: entity not in schema (a hint), checksum, specVersion, network', () => {
    const missed = outcomes.filter((o) => o.variant.codegen === 'passes' && !o.variant.build);
    const findings = missed.flatMap((o) => o.findings);
    for (const code of ['entity-not-in-schema', 'address-checksum', 'unknown-spec-version', 'unknown-network'])
      assert.ok(
        findings.some((f) => f.code === code),
        code,
      );
    // Neither graph-cli nor graph-node checks mapping.entities: never more than a hint.
    assert.ok(findings.filter((f) => f.code === 'entity-not-in-schema').every((f) => f.severity === 'info'));
  });
});

describe('node dist/cli.js validate', () => {
  const cli = (args: string[], cwd: string) => exec(process.execPath, [path.join(root, 'dist', 'cli.js'), 'validate', ...args], cwd, 30_000);

  test('prints FILE:LINE:COL: severity: MESSAGE and exits 1 on errors, 0 on a clean subgraph', async () => {
    const dir = project('dist-cli', replaceIn('subgraph.yaml', 'Approval(indexed address,indexed address,uint256)', 'Approval(address,address,uint256)'));
    const broken = await cli([], dir);
    assert.equal(broken.code, 1);
    assert.match(broken.output, /^subgraph\.yaml:23:18: error: Event with signature 'Approval\(address,address,uint256\)' not present in ABI 'ERC20'; did you mean/m);
    const json = await cli(['--format', 'json', 'subgraph.yaml'], dir);
    const parsed = JSON.parse(json.output.slice(0, json.output.lastIndexOf(']') + 1)) as { code: string; line: number; column: number }[];
    assert.deepEqual(
      parsed.map((l) => [l.code, l.line, l.column]),
      [['event-not-in-abi', 23, 18]],
    );
    const clean = await cli([path.join(root, 'test', 'fixtures', 'subgraphs', 'tutorial')], dir);
    assert.equal(clean.code, 0, clean.output);
    const missing = await cli(['nope.yaml'], dir);
    assert.equal(missing.code, 2);
    assert.match(missing.output, /nope\.yaml: no such file/);
  });
});
