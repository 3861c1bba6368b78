// The toolchain choice (graph-cli found from the project, else gnd; a preference forcing one) and
// gnd's command lines and process: the deploy key only in a private HOME file, never on argv.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { graphBuildCommand, graphCodegenCommand, graphCreateCommand, graphDeployCommand, GraphInputError, graphRemoveCommand } from '../../../../../src/core/subgraph/graphcli/commands';
import { chooseToolchain, displayToolchainCommand, findAscBin, gndArgs, gndProcess, gndTestArgs, ToolchainError } from '../../../../../src/core/subgraph/graphcli/toolchain';

const DEPLOY_KEY = '0123456789abcdef0123456789abcdef';

function tmp(): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), 'chaindeck-toolchain-')));
}

function put(file: string, text = ''): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const withCli = tmp();
const CLI = put(path.join(withCli, 'node_modules', '@graphprotocol', 'graph-cli', 'bin', 'run.js'));
const project = path.join(withCli, 'packages', 'subgraph');
mkdirSync(project, { recursive: true });
const bare = tmp();
const GND = '/opt/gnd/gnd';
let gndAsked = 0;
const gnd = async () => {
  gndAsked++;
  return GND;
};

test('auto: graph-cli when the project has it (gnd not even resolved), gnd when it has none', async () => {
  gndAsked = 0;
  assert.deepEqual(await chooseToolchain({ fromDir: project, gnd, searchPath: '' }), { kind: 'graph-cli', cli: CLI });
  assert.equal(gndAsked, 0);
  assert.deepEqual(await chooseToolchain({ fromDir: bare, gnd, searchPath: '' }), { kind: 'gnd', gnd: GND });
  assert.equal(gndAsked, 1);
});

test('a preference forces one: gnd over a present graph-cli; graph-cli when missing is a one-line error', async () => {
  assert.deepEqual(await chooseToolchain({ fromDir: project, preference: 'gnd', gnd, searchPath: '' }), { kind: 'gnd', gnd: GND });
  await assert.rejects(chooseToolchain({ fromDir: bare, preference: 'graph-cli', gnd, searchPath: '' }), (err: Error) => {
    assert.ok(err instanceof ToolchainError);
    assert.match(err.message, /graph CLI was not found .*set the toolchain to gnd or auto/);
    assert.doesNotMatch(err.message, /\n/);
    return true;
  });
});

test('gnd takes graph-cli command lines as they are, without a deploy key flag', () => {
  assert.deepEqual(gndArgs(graphCodegenCommand()), ['codegen', '--skip-migrations']);
  assert.deepEqual(gndArgs(graphBuildCommand('other.yaml')), ['build', 'other.yaml', '--skip-migrations']);
  const deploy = graphDeployCommand({ name: 'me/sg', versionLabel: 'v1', deployUrl: 'http://127.0.0.1:8020', ipfsUrl: 'http://127.0.0.1:5001', useDeployKey: true });
  assert.deepEqual(gndArgs(deploy), ['deploy', '--node', 'http://127.0.0.1:8020', '--ipfs', 'http://127.0.0.1:5001', 'me/sg', '--version-label', 'v1', '--skip-migrations']);
  const create = graphCreateCommand({ name: 'me/sg', deployUrl: 'http://127.0.0.1:8020', useDeployKey: true });
  assert.deepEqual(gndArgs(create), ['create', '--node', 'http://127.0.0.1:8020', 'me/sg']);
  assert.equal(displayToolchainCommand({ kind: 'gnd' }, create), 'gnd create --node http://127.0.0.1:8020 me/sg');
  assert.deepEqual(gndArgs(graphRemoveCommand({ name: 'me/sg', deployUrl: 'http://127.0.0.1:8020', useDeployKey: true })), ['remove', '--node', 'http://127.0.0.1:8020', 'me/sg']);
  assert.equal(displayToolchainCommand({ kind: 'graph-cli' }, create), 'graph create --node http://127.0.0.1:8020 me/sg --access-token {deployKey}');
});

test('gnd test: the manifest, --skip-build when asked, files after --', () => {
  assert.deepEqual(gndTestArgs({ manifest: 'subgraph.yaml' }), ['test', '--manifest', 'subgraph.yaml']);
  assert.deepEqual(gndTestArgs({ manifest: 'sg.yaml', files: ['tests/a.json'], skipBuild: true }), ['test', '--manifest', 'sg.yaml', '--skip-build', '--', 'tests/a.json']);
});

test('gndProcess: the deploy key is in a 0600 file of a private HOME keyed by the normalised node URL, nowhere in argv or env values', () => {
  const home = tmp();
  const deploy = graphDeployCommand({ name: 'me/sg', versionLabel: 'v1', deployUrl: 'https://host.example/deploy', ipfsUrl: 'https://host.example/ipfs', useDeployKey: true });
  const proc = gndProcess(deploy, { deployKey: DEPLOY_KEY }, { gnd: GND, cwd: bare, env: { PATH: '/usr/bin', HOME: '/root' }, makeHome: () => home });
  assert.equal(proc.file, GND);
  assert.ok(!proc.args.join(' ').includes(DEPLOY_KEY));
  assert.ok(!Object.values(proc.env).some((v) => v?.includes(DEPLOY_KEY)));
  assert.equal(proc.stdin, '');
  assert.equal(proc.env.HOME, home);
  const file = path.join(home, '.graph-cli.json');
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { 'https://host.example/deploy': DEPLOY_KEY });
  if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(proc.display, 'gnd deploy --node https://host.example/deploy --ipfs https://host.example/ipfs me/sg --version-label v1 --skip-migrations');
  rmSync(home, { recursive: true });
  // No key asked for: no HOME of its own.
  const plain = gndProcess(graphBuildCommand(), {}, { gnd: GND, cwd: bare, env: { PATH: '/usr/bin', HOME: '/root' }, makeHome: () => assert.fail('no HOME needed') });
  assert.equal(plain.env.HOME, '/root');
  assert.equal(plain.home, undefined);
});

test('gndProcess refuses a URL holding an access key (gnd would show it in ps) and a missing deploy key, one message each', () => {
  const keyed = graphDeployCommand({ name: 'me/sg', versionLabel: 'v1', deployUrl: 'https://host.example/{key}/deploy', ipfsUrl: 'https://host.example/ipfs', useDeployKey: false });
  assert.throws(
    () => gndProcess(keyed, { accessKey: 'secret' }, { gnd: GND, cwd: bare }),
    (err: Error) => err instanceof GraphInputError && /other users of this machine could read the access key/.test(err.message),
  );
  const withKey = graphDeployCommand({ name: 'me/sg', versionLabel: 'v1', deployUrl: 'https://host.example/deploy', ipfsUrl: 'https://host.example/ipfs', useDeployKey: true });
  assert.throws(() => gndProcess(withKey, {}, { gnd: GND, cwd: bare }), /No deploy key is stored/);
});

test('gndProcess puts the nearest node_modules/.bin with asc first on PATH (a hoisted layout builds), colours off', () => {
  const root = tmp();
  const bin = path.dirname(put(path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'asc.cmd' : 'asc')));
  const sub = path.join(root, 'packages', 'sg');
  mkdirSync(sub, { recursive: true });
  assert.equal(findAscBin(sub), bin);
  assert.equal(findAscBin(bare), undefined);
  const proc = gndProcess(graphBuildCommand(), {}, { gnd: GND, cwd: sub, node: '/opt/node/bin/node', env: { PATH: '/usr/bin' } });
  assert.equal(proc.env.PATH, [bin, '/opt/node/bin', '/usr/bin'].join(path.delimiter));
  assert.equal(proc.env.NO_COLOR, '1');
  assert.ok(existsSync(bin));
});
