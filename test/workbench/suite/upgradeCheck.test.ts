/**
 * "Check Upgrade Against…" inside the real extension host, on test/fixtures/solidity/
 * UpgradeCompat.sol compiled with solc (its build-info in the workspace) and BoxV1 deployed on the
 * runner's anvil ("Local anvil"): against the deployed address (the layout picked by its code)
 * an inserted variable is an error in Problems on its declaration's line, an append is fine and
 * clears Problems, and a slot the new version adds that BoxV1 already wrote is an error (also
 * behind an ERC1967Proxy: the implementation's code picks, the proxy's storage counts); against
 * a BeaconProxy of BoxV1 the implementation its beacon names picks the layout; against
 * a git ref (a repository of the test's own, in the workspace) the layout committed there is
 * compared; the CodeLens over `contract X` carries the command with X and the file.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { getAddress, Interface } from 'ethers';
import type { RpcClient } from '../../../src/core/rpc/client';
import type { UpgradeCheckSummary } from '../../../src/editor/storage/upgradeCheck';
import { attach, compileFixture, compileSource, deploy, writeArtifacts, type Deployed, type SolcCompiled } from '../../support/solidity';
import { activateTestApi, anvil, until } from './helpers';

const CHECK = 'chaindeck.storage.checkUpgrade';
const client = { call: (method: string, params?: unknown[]) => anvil(method, params ?? []) } as unknown as RpcClient;
const FIXTURE = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'solidity', 'UpgradeCompat.sol');

const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
/** Zero-based line of `needle`, the first after the line that starts `contract NAME`. */
function lineIn(file: string, contract: string, needle: string): number {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith(`contract ${contract} `));
  assert.ok(start >= 0, contract);
  const at = lines.findIndex((l, i) => i > start && l.includes(needle));
  assert.ok(at > start, needle);
  return at;
}
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'chaindeck-upgrade');

describe('upgradeCheck', () => {
  let box: Deployed;
  let folder: string;
  let source: string;
  let uri: vscode.Uri;
  let tmp: string;
  let compiled: SolcCompiled;

  before(async function () {
    this.timeout(120_000);
    await activateTestApi('activate() returned no test API');
    compiled = compileFixture('UpgradeCompat.sol');
    box = await deploy(client, compiled, 'contracts/UpgradeCompat.sol', 'BoxV1');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-uc-'));
    const { hardhat2 } = writeArtifacts(tmp, compiled, 'contracts/UpgradeCompat.sol', 'BoxV1');
    folder = path.join(root(), 'upgrade-check');
    fs.mkdirSync(path.join(folder, 'artifacts', 'build-info'), { recursive: true });
    fs.mkdirSync(path.join(folder, 'contracts'), { recursive: true });
    fs.copyFileSync(hardhat2, path.join(folder, 'artifacts', 'build-info', 'compat.json'));
    source = path.join(folder, 'contracts', 'UpgradeCompat.sol');
    fs.copyFileSync(FIXTURE, source);
    uri = vscode.Uri.file(source);
  });

  after(() => {
    for (const dir of [folder, tmp]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const check = async (contract: string, against: object, file = uri) => vscode.commands.executeCommand<UpgradeCheckSummary | undefined>(CHECK, { contract, file: file.toString(), against });

  it('against a deployed address: an inserted variable is an error on its line in Problems', async function () {
    this.timeout(60_000);
    const summary = await until('the check of BoxV2Inserted', () => check('BoxV2Inserted', { node: 'Local anvil', address: box.address }));
    assert.equal(summary.against, `BoxV1 at ${getAddress(box.address)} on Local anvil`);
    assert.deepEqual(summary.findings, [{ kind: 'inserted', path: 'fee', before: null, after: 'uint256 fee at slot 1', severity: 'error' }]);
    const line = lineIn(source, 'BoxV2Inserted', 'uint256 public fee;');
    assert.deepEqual(summary.problems, [{ line, message: 'inserted fee: nothing → uint256 fee at slot 1', severity: 'error' }]);
    const shown = ours(uri);
    assert.deepEqual(
      shown.map((d) => [d.range.start.line, d.severity, d.code, d.message]),
      [[line, vscode.DiagnosticSeverity.Error, 'inserted', 'inserted fee: nothing → uint256 fee at slot 1']],
    );
    assert.equal(fs.readFileSync(source, 'utf8').split('\n')[line].slice(shown[0].range.start.character, shown[0].range.end.character), 'fee');
  });

  it('against a beacon proxy: the layout picked by the code of the implementation its beacon names', async function () {
    this.timeout(60_000);
    const kinds = compileFixture('ProxyKinds.sol');
    const [owner] = (await anvil('eth_accounts', [])) as string[];
    const beacon = await deploy(client, kinds, '@openzeppelin/contracts/proxy/beacon/UpgradeableBeacon.sol', 'UpgradeableBeacon', box.address, owner);
    const proxy = await deploy(client, kinds, '@openzeppelin/contracts/proxy/beacon/BeaconProxy.sol', 'BeaconProxy', beacon.address, '0x');
    const summary = await check('BoxV2Inserted', { node: 'Local anvil', address: proxy.address });
    assert.ok(summary, 'the check ran');
    assert.equal(
      summary.against,
      `BoxV1 at ${getAddress(proxy.address)} on Local anvil — beacon proxy → beacon ${getAddress(beacon.address)} → implementation ${getAddress(box.address)} (BoxV1)`,
    );
    assert.deepEqual(
      summary.findings.map((f) => [f.kind, f.path]),
      [['inserted', 'fee']],
    );
  });

  it('an append is fine and clears Problems; once BoxV1 wrote the slot it adds, a nonzero-slot error on that line', async function () {
    this.timeout(60_000);
    const fine = await check('BoxV2Appended', { node: 'Local anvil', address: box.address });
    assert.deepEqual(fine?.findings, []);
    assert.deepEqual(ours(uri), [], 'the last check’s findings are gone');
    const block = await box.send('poke', 3n, 9n);
    const dirty = await check('BoxV2Appended', { node: 'Local anvil', address: box.address });
    assert.deepEqual(dirty?.findings, [{ kind: 'nonzero-slot', path: 'fee', before: `slot 3 holds 0x9 at block ${block}`, after: 'uint256 fee at slot 3', severity: 'error' }]);
    assert.deepEqual(
      ours(uri).map((d) => d.range.start.line),
      [lineIn(source, 'BoxV2Appended', 'uint256 public fee;')],
    );
  });

  it('at an ERC-1967 proxy: the implementation’s code picks the layout, the proxy’s storage is checked', async function () {
    this.timeout(120_000);
    const points = compileFixture('Points.sol');
    const PROXY = '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol';
    const impl = await deploy(client, compiled, 'contracts/UpgradeCompat.sol', 'BoxV1');
    // OpenZeppelin's proxy refuses empty init data: a call that stores nothing new.
    const init = new Interface(compiled.output.contracts['contracts/UpgradeCompat.sol'].BoxV1.abi).encodeFunctionData('poke', [0n, 0n]);
    const proxy = await deploy(client, points, PROXY, 'ERC1967Proxy', impl.address, init);
    const fine = await check('BoxV2Appended', { node: 'Local anvil', address: proxy.address });
    assert.equal(fine?.against, `BoxV1 at ${getAddress(proxy.address)} on Local anvil — ERC-1967 proxy → implementation ${getAddress(impl.address)} (BoxV1)`);
    assert.deepEqual(fine?.findings, []);
    await impl.send('poke', 3n, 1n); // the implementation's own storage: not what the proxy runs on
    assert.deepEqual((await check('BoxV2Appended', { node: 'Local anvil', address: proxy.address }))?.findings, []);
    const block = await (await attach(client, compiled, 'contracts/UpgradeCompat.sol', 'BoxV1', proxy.address)).send('poke', 3n, 2n);
    assert.deepEqual((await check('BoxV2Appended', { node: 'Local anvil', address: proxy.address }))?.findings, [
      { kind: 'nonzero-slot', path: 'fee', before: `slot 3 holds 0x2 at block ${block}`, after: 'uint256 fee at slot 3', severity: 'error' },
    ]);
  });

  it('against a git ref: the layout committed there, not the work tree’s', async function () {
    this.timeout(60_000);
    const repo = path.join(folder, 'repo');
    fs.mkdirSync(path.join(repo, 'contracts'), { recursive: true });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, timeout: 20_000, stdio: 'pipe' });
    const text = fs.readFileSync(FIXTURE, 'utf8');
    const body = (name: string) =>
      text.slice(text.indexOf(`contract ${name} {`), text.indexOf('\n}\n', text.indexOf(`contract ${name} {`)) + 3).replace(`contract ${name} {`, 'contract Box {');
    const version = (name: string) => {
      const boxSource = `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n\n${body(name)}`;
      fs.writeFileSync(path.join(repo, 'contracts', 'Box.sol'), boxSource);
      const { foundry } = writeArtifacts(tmp, compileSource('contracts/Box.sol', boxSource), 'contracts/Box.sol', 'Box');
      fs.mkdirSync(path.join(repo, 'out', 'Box.sol'), { recursive: true });
      fs.copyFileSync(foundry, path.join(repo, 'out', 'Box.sol', 'Box.json'));
    };
    git('init', '-q');
    version('BoxV1');
    git('add', '.');
    git('commit', '-qm', 'v1');
    git('tag', 'v1');
    version('BoxV2Reordered');
    const file = vscode.Uri.file(path.join(repo, 'contracts', 'Box.sol'));
    const summary = await until('the check of Box against v1', () => check('Box', { ref: 'v1' }, file));
    assert.equal(summary.against, 'Box at v1');
    assert.deepEqual(
      summary.findings.map((f) => f.kind),
      ['reordered'],
    );
    const declared = fs
      .readFileSync(file.fsPath, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(`public ${summary.findings[0].path};`));
    assert.deepEqual(
      summary.problems.map((p) => p.line),
      [declared],
    );
    assert.deepEqual(ours(uri), [], 'the check before was in another file: cleared');
    assert.equal(await check('Box', { ref: 'no-such-tag' }, file), undefined, 'a ref that names nothing: an error message, no findings');
  });

  it('the CodeLens over contract X carries the check with X and its file', async function () {
    this.timeout(30_000);
    await vscode.window.showTextDocument(uri);
    const lenses = await until('the Check Upgrade lenses', async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      const mine = found?.filter((l) => l.command?.command === CHECK);
      return mine && mine.length >= 2 ? mine : undefined;
    });
    const lines = fs.readFileSync(source, 'utf8').split('\n');
    const titled = lenses.map((l) => [lines[l.range.start.line].split(' ').slice(0, 2).join(' '), l.command!.title]);
    assert.ok(
      titled.some(([c, t]) => c === 'contract BoxV2Inserted' && t === 'Check Upgrade Against…'),
      JSON.stringify(titled),
    );
    const lens = lenses.find((l) => lines[l.range.start.line].startsWith('contract BoxV2Inserted'))!;
    const args = lens.command!.arguments![0] as { contract: string; file: string };
    assert.deepEqual(args, { contract: 'contracts/UpgradeCompat.sol:BoxV2Inserted', file: uri.toString() });
    const summary = await vscode.commands.executeCommand<UpgradeCheckSummary>(CHECK, { ...args, against: { node: 'Local anvil', address: box.address } });
    assert.deepEqual(
      summary.findings.map((f) => `${f.kind} ${f.path}`),
      ['inserted fee'],
    );
  });
});
