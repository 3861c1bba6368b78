/**
 * `chaindeck validate` in-process: the line format problem matchers read, the JSON form, the
 * order, file names relative to the current folder, and the exit status.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIO } from '../../src/cli/command';
import { main } from '../../src/cli/main';
import { tutorialFiles, type Files } from '../fixtures/subgraphs/corpus';

interface Run {
  code: number;
  out: string;
  err: string;
}

async function cli(...args: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: {} };
  const code = await main(['validate', ...args], io);
  return { code, out, err };
}

let dir: string;
const cwd = process.cwd();

function writeProject(name: string, edit: (files: Files) => void = () => {}): string {
  const files = tutorialFiles();
  edit(files);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, name, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(dir, name, file), text);
  }
  return name;
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-validate-cli-'));
  writeProject('good');
  writeProject('broken', (f) => {
    f['subgraph.yaml'] = f['subgraph.yaml'].replace('startBlock: 6082465', 'startblock: 6082465').replace('network: mainnet', 'network: mainet');
    f['schema.graphql'] = f['schema.graphql'].replace('id: ID!', 'id: Int!');
  });
  writeProject('warned', (f) => void (f['subgraph.yaml'] = f['subgraph.yaml'].replace('network: mainnet', 'network: mainet')));
  process.chdir(dir);
});

after(() => {
  process.chdir(cwd);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('chaindeck validate', () => {
  test('a valid subgraph: no output, exit 0', async () => {
    const run = await cli('good/subgraph.yaml');
    assert.equal(run.code, 0);
    assert.equal(run.out, '');
    assert.equal(run.err, 'good/subgraph.yaml: 0 errors, 0 warnings\n');
  });

  test('FILE:LINE:COL: severity: MESSAGE, 1-based, sorted by file and position, exit 1', async () => {
    const run = await cli('broken/subgraph.yaml');
    assert.equal(run.code, 1);
    assert.deepEqual(run.out.trimEnd().split('\n'), [
      "broken/schema.graphql:3:7: error: Field 'id': Entity ids must be of type Int8!, Bytes! or String! (or ID!)",
      "broken/subgraph.yaml:8:14: info: Unknown network 'mainet': not in The Graph's networks registry; did you mean 'mainnet'?",
      "broken/subgraph.yaml:12:7: error: Unexpected key 'startblock' in dataSources[0].source; did you mean 'startBlock'?",
    ]);
    assert.equal(run.err, 'broken/subgraph.yaml: 2 errors, 0 warnings\n');
  });

  test('files named relative to the current folder, the manifest as given', async () => {
    process.chdir(path.join(dir, 'broken'));
    try {
      const run = await cli(path.join(dir, 'broken', 'subgraph.yaml'));
      const files = run.out
        .trimEnd()
        .split('\n')
        .map((l) => l.split(':')[0]);
      // Sorted by the names shown: the absolute path sorts first here.
      assert.deepEqual(files, [path.join(dir, 'broken', 'subgraph.yaml'), path.join(dir, 'broken', 'subgraph.yaml'), 'schema.graphql']);
      // Without PATH: ./subgraph.yaml.
      assert.equal((await cli()).code, 1);
    } finally {
      process.chdir(dir);
    }
  });

  test('warnings alone: exit 0', async () => assert.equal((await cli('warned/subgraph.yaml')).code, 0));

  test('a folder means its subgraph.yaml', async () => assert.equal((await cli('broken')).out.split('\n').length, 4));

  test('--format json', async () => {
    const run = await cli('--format', 'json', 'broken/subgraph.yaml');
    assert.equal(run.code, 1);
    const lines = JSON.parse(run.out) as Record<string, unknown>[];
    assert.deepEqual(lines[0], {
      file: 'broken/schema.graphql',
      line: 3,
      column: 7,
      endLine: 3,
      endColumn: 11,
      severity: 'error',
      code: 'entity-id-type',
      message: "Field 'id': Entity ids must be of type Int8!, Bytes! or String! (or ID!)",
    });
    assert.deepEqual(JSON.parse((await cli('--format=json', 'good')).out), []);
  });

  test('usage errors: exit 2 with a clear message', async () => {
    const missing = await cli('nowhere/subgraph.yaml');
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^chaindeck validate: nowhere\/subgraph\.yaml: no such file\n/);
    assert.equal((await cli('--format', 'xml', 'good')).code, 2);
    assert.equal((await cli('--strict', 'good')).code, 2);
    assert.equal((await cli('good', 'broken')).code, 2);
    fs.mkdirSync('empty-folder', { recursive: true });
    assert.match((await cli('empty-folder')).err, /a folder without a subgraph\.yaml/);
  });

  test('--help', async () => {
    const run = await cli('--help');
    assert.equal(run.code, 0);
    assert.match(run.out, /^Usage: chaindeck validate \[PATH\] \[--format text\|json\]/);
  });
});
