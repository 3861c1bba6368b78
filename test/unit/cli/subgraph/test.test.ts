import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { jsonResult, lineDiff, subgraphTestAction, textReport } from '../../../../src/cli/subgraph/test';
import { subgraphDispatcher } from '../../../../src/cli/subgraph/subgraph';
import { defineCommand } from '../../../../src/cli/command';
import type { TestResult } from '../../../../src/core/gndtest/results';
import { runMain } from '../../../support/cli';

const failed: TestResult = {
  file: '/p/tests/fail.json',
  name: 'Ping wrong n',
  passed: false,
  durationMs: 1400,
  assertions: [
    { query: '{ pings { n } }', passed: true },
    { query: '{\n  pings { id n }\n}', passed: false, expected: { pings: [{ n: '8', id: 'a' }] }, actual: { pings: [{ id: 'a', n: '7' }] } },
  ],
};
const boom: TestResult = { file: '/p/tests/boom.json', name: 'Boom', passed: false, assertions: [{ query: '{ pings { n } }', passed: false }], error: 'Handler error: boom after 3 pings' };

test('--format json: exactly file, name, passed, assertions (expected/actual only where failed), and error where it could not run', () => {
  assert.deepEqual(JSON.parse(JSON.stringify([failed, boom].map((r) => jsonResult(r, '/p')))), [
    {
      file: 'tests/fail.json',
      name: 'Ping wrong n',
      passed: false,
      assertions: [
        { query: '{ pings { n } }', passed: true },
        { query: '{\n  pings { id n }\n}', passed: false, expected: { pings: [{ n: '8', id: 'a' }] }, actual: { pings: [{ id: 'a', n: '7' }] } },
      ],
    },
    { file: 'tests/boom.json', name: 'Boom', passed: false, assertions: [{ query: '{ pings { n } }', passed: false }], error: 'Handler error: boom after 3 pings' },
  ]);
});

test('text: a line per test, then each failed assertion with its query and a unified diff (keys in one order, - before +)', () => {
  const pass: TestResult = { file: '/p/tests/pass.json', name: 'Ping', passed: true, durationMs: 1600, assertions: [{ query: '{ pings { n } }', passed: true }] };
  assert.equal(
    textReport([failed, boom, pass], '/p', 5000),
    [
      '✘ Ping wrong n  tests/fail.json  1.4 s',
      '✘ Boom  tests/boom.json',
      '    Handler error: boom after 3 pings',
      '✔ Ping  tests/pass.json  1.6 s',
      '',
      '● Ping wrong n → tests/fail.json',
      '  Query: {',
      '           pings { id n }',
      '         }',
      '  - expected',
      '  + actual',
      '    {',
      '      "pings": [',
      '        {',
      '          "id": "a",',
      '  -       "n": "8"',
      '  +       "n": "7"',
      '        }',
      '      ]',
      '    }',
      '',
      'Tests: 1 passed, 2 failed (5.0 s)',
      '',
    ].join('\n'),
  );
});

test("text: a test's name, file, error and query from outside cannot move the cursor or start a line of their own", () => {
  const hostile: TestResult = {
    file: '/p/tests/x\n✔ forged.json',
    name: 'a\x1b[2J\n✔ forged',
    passed: false,
    assertions: [{ query: '{ a }\x1b]0;title\x07', passed: false, expected: 'x\x1b[31m', actual: 1 }],
    error: 'line\n✔ forged',
  };
  const text = textReport([hostile], '/p');
  // eslint-disable-next-line no-control-regex -- looking for exactly these
  assert.doesNotMatch(text, /[\x1b\x07]/);
  assert.doesNotMatch(text, /^✔/m);
});

test('lineDiff: common lines kept, changes marked; too large a pair shown whole', () => {
  assert.deepEqual(lineDiff('a\nb\nc', 'a\nx\nc'), ['  a', '- b', '+ x', '  c']);
  assert.deepEqual(lineDiff('a', 'a\nb'), ['  a', '+ b']);
  const big = Array.from({ length: 3000 }, (_, i) => String(i)).join('\n');
  const diff = lineDiff(big, big);
  assert.equal(diff.length, 6000);
  assert.equal(diff[0], '- 0');
});

test('usage errors exit 2 with the usage: a wrong --format, an empty --manifest; no action or an unknown one', async () => {
  const format = await runMain(['subgraph', 'test', '--format', 'yaml']);
  assert.equal(format.code, 2);
  assert.equal(format.out, '');
  assert.match(format.err, /^chaindeck subgraph test: --format takes text or json, not 'yaml'\n\nUsage: chaindeck subgraph test /);
  assert.equal((await runMain(['subgraph', 'test', '--manifest='])).code, 2);
  assert.equal((await runMain(['subgraph', 'test', '--nope'])).code, 2);
  const none = await runMain(['subgraph']);
  assert.equal(none.code, 2);
  assert.match(none.err, /^chaindeck subgraph: name the action: test/);
  const unknown = await runMain(['subgraph', 'tset']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /^chaindeck subgraph: unknown action 'tset'\n\nUsage: chaindeck subgraph <action>/);
});

test("help: `subgraph --help` lists the actions, `subgraph test --help` is the action's usage", async () => {
  const list = await runMain(['subgraph', '--help']);
  assert.equal(list.code, 0);
  assert.match(list.out, /^Usage: chaindeck subgraph <action> \[options\]/);
  assert.match(list.out, /\n {2}test {12}Run the subgraph's gnd test files/);
  const action = await runMain(['subgraph', 'test', '--help']);
  assert.equal(action.code, 0);
  assert.equal(action.out, subgraphTestAction.usage);
  assert.match(action.out, /^Usage: chaindeck subgraph test \[--manifest PATH\] \[FILE…\] \[--skip-build\] \[--format text\|json\] \[--gnd PATH\]/);
  const top = await runMain(['--help']);
  assert.match(top.out, /\n {2}subgraph +Work on a subgraph project: /);
});

test('an action is one line: another one is listed, dispatched and has its own help', async () => {
  const other = defineCommand({
    name: 'subgraph capture-test',
    summary: 'Capture',
    usage: ['--rpc URL'],
    options: {},
    exit: { done: 'd', failed: 'f' },
    check: () => ({}),
    work: async (_args, io) => {
      io.out('captured\n');
      return 0;
    },
  });
  const dispatcher = subgraphDispatcher([subgraphTestAction, other]);
  assert.match(dispatcher.usage, /\n {2}capture-test +Capture\n/);
  assert.equal(dispatcher.usageOf?.(['capture-test', '--help']), other.usage);
  let out = '';
  assert.equal(await dispatcher.run(['capture-test'], { out: (t) => (out += t), err: () => undefined, env: {} }), 0);
  assert.equal(out, 'captured\n');
});

test('--manifest: a missing one is a usage error naming it; a folder means its subgraph.yaml, as capture-test and validate take it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-subgraph-test-'));
  try {
    const missing = await runMain(['subgraph', 'test', '--manifest', path.join(dir, 'nope.yaml')]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^chaindeck subgraph test: \S*nope\.yaml: no such file\n/);
    const project = path.join(dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'subgraph.yaml'), 'specVersion: 1.3.0\n');
    // No tests/ yet: the line names the folder's own tests/, before anything is built or started.
    const folder = await runMain(['subgraph', 'test', '--manifest', project]);
    assert.equal(folder.code, 1);
    assert.equal(
      folder.err,
      `chaindeck subgraph test: no tests: ${path.join(project, 'tests')} does not exist (write gnd test files there, *.json, or capture one with \`chaindeck subgraph capture-test\`)\n`,
    );
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty);
    const noManifest = await runMain(['subgraph', 'test', '--manifest', empty]);
    assert.equal(noManifest.code, 2);
    assert.match(noManifest.err, /is a folder without a subgraph\.yaml\n/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
