// findGraphCli, graphProcess, LineRedactor and runGraph with a stand-in for the graph CLI: a
// script that prints what it is told, so each run takes a Node start-up and nothing more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { findGraphCli, graphProcess, LineRedactor, runGraph, secretsNeeded } from '../../../../../src/core/subgraph/graphcli/launch';
import type { GraphCommand } from '../../../../../src/core/subgraph/graphcli/commands';

const ACCESS_KEY = 'c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8';
const IN_PACKAGE = path.join('node_modules', '@graphprotocol', 'graph-cli', 'bin', 'run.js');

function tmp(): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), 'chaindeck-launch-')));
}

function put(file: string, text = ''): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** The stand-in CLI, installed as a package's bin/run.js with a .bin beside it; FAKE_MODE says what it prints. */
const FAKE = `
const mode = process.env.FAKE_MODE;
const argv = process.argv.slice(2);
const out = (s) => process.stdout.write(s);
if (mode === 'env') out(JSON.stringify({ cwd: process.cwd(), force: process.env.FORCE_COLOR, path: process.env.PATH, argv }) + '\\n');
if (mode === 'deploy') {
  const node = argv[argv.indexOf('--node') + 1].replace('/deploy', '');
  out('Deployed to ' + node + '/graphql\\n');
  setTimeout(() => process.stderr.write('Queries (HTTP): ' + node + '/q\\n'), 50);
}
if (mode === 'ipfs') out('✖ Failed to upload file to IPFS: fetch failed\\n');
if (mode === 'codegen') process.stderr.write('Types generated successfully\\n');
if (mode === 'stubborn') { process.on('SIGTERM', () => out('ignored\\n')); out('ready\\n'); setInterval(() => undefined, 1000); }
`;
const root = tmp();
const CLI = put(path.join(root, IN_PACKAGE), FAKE);
mkdirSync(path.join(root, 'node_modules', '.bin'));

function command(subcommand: GraphCommand['subcommand'], args: string[]): GraphCommand {
  return { subcommand, args: [subcommand, ...args], manifest: 'subgraph.yaml', notes: [] };
}

function run(cmd: GraphCommand, mode: string, more: Partial<Parameters<typeof runGraph>[1]> = {}) {
  return runGraph(cmd, { cli: CLI, node: process.execPath, cwd: root, env: { PATH: process.env.PATH, FAKE_MODE: mode }, ...more });
}

test('findGraphCli: the package in the folder or any folder above, else a graph on the search path', () => {
  const top = tmp();
  const cli = put(path.join(top, IN_PACKAGE));
  assert.equal(findGraphCli(path.join(top, 'a', 'b'), ''), cli);

  const empty = tmp();
  assert.equal(findGraphCli(empty, ''), undefined);

  // A `graph` link to the CLI's run.js: the script it resolves to.
  const bin = tmp();
  const linked = put(path.join(tmp(), 'graph-cli', 'bin', 'run.js'));
  symlinkSync(linked, path.join(bin, 'graph'));
  assert.equal(findGraphCli(empty, `${path.delimiter}${bin}`), linked);
  // A `graph` that is something else is passed over; npm's Windows layout beside it is found.
  const other = tmp();
  symlinkSync(put(path.join(tmp(), 'graph-cli', 'bin', 'other.js')), path.join(other, 'graph'));
  assert.equal(findGraphCli(empty, other), undefined);
  const windows = put(path.join(other, IN_PACKAGE));
  assert.equal(findGraphCli(empty, other), windows);
  // A link to some other package's bin/run.js is no graph CLI; a folder without a graph is passed over.
  const stranger = tmp();
  symlinkSync(put(path.join(tmp(), 'other-cli', 'bin', 'run.js')), path.join(stranger, 'graph'));
  assert.equal(findGraphCli(empty, stranger), undefined);
  const noLink = tmp();
  const besideOnly = put(path.join(noLink, IN_PACKAGE));
  assert.equal(findGraphCli(empty, noLink), besideOnly);

  // The default search path is PATH; empty entries are skipped, not read as the working folder.
  const saved = { path: process.env.PATH, cwd: process.cwd() };
  try {
    process.env.PATH = bin;
    assert.equal(findGraphCli(empty), linked);
    process.chdir(top);
    assert.equal(findGraphCli(empty, path.delimiter), undefined);
  } finally {
    process.env.PATH = saved.path;
    process.chdir(saved.cwd);
  }
});

test('secretsNeeded: the access key only for a URL holding {key}', () => {
  assert.deepEqual(secretsNeeded({ args: ['deploy', 'HTTPS://h/{key}'] }), { accessKey: true, deployKey: false });
  assert.deepEqual(secretsNeeded({ args: ['deploy', 'name-http://h/{key}', '{deployKey}'] }), { accessKey: false, deployKey: true });
});

test('graphProcess: PATH holds the .bin beside the CLI and the folder of an absolute node, and nothing empty', () => {
  const nodeDir = path.dirname(process.execPath);
  const proc = graphProcess(command('codegen', []), {}, { cli: CLI, node: process.execPath, env: { PATH: '/usr/bin', OTHER: 'x' } });
  assert.deepEqual(proc.env, { PATH: [path.join(root, 'node_modules', '.bin'), nodeDir, '/usr/bin'].join(path.delimiter), OTHER: 'x', FORCE_COLOR: '0' });
  const lone = path.join(tmp(), 'run.js');
  assert.equal(graphProcess(command('codegen', []), {}, { cli: lone, env: { PATH: '/usr/bin' } }).env.PATH, '/usr/bin');
  assert.equal(graphProcess(command('codegen', []), {}, { cli: lone, env: {} }).env.PATH, '');
});

test('LineRedactor: whole lines as soon as they end (\\n or \\r), the rest at the end, once', () => {
  const seen: string[] = [];
  const r = new LineRedactor([ACCESS_KEY], (t) => seen.push(t));
  r.push('no end yet');
  assert.deepEqual(seen, []);
  r.push(` ${ACCESS_KEY}\nnext`);
  assert.deepEqual(seen, ['no end yet ***\n']);
  r.push('\rmore');
  assert.deepEqual(seen, ['no end yet ***\n', 'next\r']);
  r.end();
  r.end();
  assert.deepEqual(seen, ['no end yet ***\n', 'next\r', 'more']);

  const first: string[] = [];
  const s = new LineRedactor([], (t) => first.push(t));
  s.push('\nabc');
  s.push('\u001b[?25lx\u001b[?25h\u001b[2K\n');
  s.end();
  s.end();
  assert.deepEqual(first, ['\n', 'abcx\n']);
});

test('runGraph: the CLI runs in the folder, with FORCE_COLOR=0, the extended PATH and the secrets swapped in', async () => {
  const cwd = tmp();
  const cmd = command('deploy', ['--node', 'http://h/{key}/deploy', 'my/sub']);
  const result = await run(cmd, 'env', { cwd, secrets: { accessKey: ACCESS_KEY } });
  const printed = JSON.parse(result.output.split('\n')[0]) as { cwd: string; force: string; path: string; argv: string[] };
  assert.equal(printed.cwd, cwd);
  assert.equal(printed.force, '0');
  assert.equal(printed.path, [path.join(root, 'node_modules', '.bin'), path.dirname(process.execPath), process.env.PATH].join(path.delimiter));
  assert.deepEqual(printed.argv, ['deploy', '--node', 'http://h/***/deploy', 'my/sub']);
});

test('runGraph: a deploy that succeeded keeps the printed URLs in their {key} form, from stdout and stderr', async () => {
  const cmd = command('deploy', ['--node', 'http://h/{key}/deploy', 'my/sub']);
  const started = performance.now();
  const result = await run(cmd, 'deploy', { secrets: { accessKey: ACCESS_KEY } });
  const elapsed = performance.now() - started;
  assert.equal(result.output, 'Deployed to http://h/***/graphql\nQueries (HTTP): http://h/***/q\n');
  assert.deepEqual(result.outcome, {
    ok: true,
    summary: 'Deployed: queries at http://h/***/q',
    problems: [],
    deployedTo: 'http://h/{key}/graphql',
    queriesUrl: 'http://h/{key}/q',
    buildOutput: undefined,
    ipfsHash: undefined,
  });
  assert.equal(result.exitCode, 0);
  assert.equal(result.cancelled, false);
  assert.ok(result.timeMs > 0 && result.timeMs <= elapsed, `${result.timeMs} within ${elapsed}`);
});

test('runGraph: other commands that succeed get no deployment URLs', async () => {
  const result = await run(command('codegen', []), 'codegen');
  assert.equal(result.output, 'Types generated successfully\n');
  assert.deepEqual(result.outcome, { ok: true, summary: 'Types generated successfully.', problems: [] });
});

test('runGraph: the deploy and IPFS URLs of the command are the ones a failure names', async () => {
  const withIpfs = await run(command('deploy', ['--node', 'http://n/', '--ipfs', 'http://ipfs:5001', 'my/sub']), 'ipfs');
  assert.equal(withIpfs.outcome.summary, 'Cannot reach the IPFS node at http://ipfs:5001 (fetch failed): check the IPFS URL (and the key in it) and your network.');
  const without = await run(command('deploy', ['my/sub']), 'ipfs');
  assert.equal(without.outcome.summary, 'Cannot reach the IPFS node at the IPFS URL (fetch failed): check the IPFS URL (and the key in it) and your network.');
});

test('runGraph: a Node.js that cannot be started for another reason than missing: the reason', async () => {
  const folder = tmp();
  const result = await run(command('codegen', []), 'env', { node: folder });
  assert.equal(result.outcome.ok, false);
  assert.equal(result.outcome.summary, `Cannot start the graph CLI: spawn ${folder} EACCES`);
});

test('runGraph: a CLI that ignores SIGTERM is killed 3 s after cancelling', { timeout: 15000 }, async () => {
  const controller = new AbortController();
  const result = await run(command('codegen', []), 'stubborn', {
    signal: controller.signal,
    onOutput: (t) => {
      if (t.includes('ready')) controller.abort();
    },
  });
  assert.equal(result.cancelled, true);
  assert.equal(result.exitCode, null);
  assert.equal(result.outcome.summary, 'graph codegen was cancelled.');
  assert.ok(result.timeMs >= 2900, String(result.timeMs));
});
