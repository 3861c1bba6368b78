/**
 * Mapping keys that are found, on real anvil and ganache: a token with a thousand airdrop
 * recipients (every pair of its holders is ten times the 100,000 combinations a search tries)
 * and two approvals. `chaindeck storage-decode` finds both allowances, because the (owner,
 * spender) pair each Approval event names is tried first; an allowance no event names is not
 * found within the bound, and the warning says the search stopped and names --keys; given with
 * --keys, it is found. Expected values are what the test sent.
 *
 * A search that stops at the bound has read 100,000 slots: ganache answers them in about two
 * minutes (anvil in a second; the rest of the ~13 s is keccak256 of each combination's slot), so
 * ganache runs the search once; the --keys path is the same core code on both nodes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { buildCli, runCli } from '../support/cli';
import { compileFixture, deploy, writeArtifacts, type Deployed } from '../support/solidity';

const SOURCE = 'contracts/AirdropToken.sol';
const NAME = 'AirdropToken';
const HOLDERS = 1_000;
/** Recipients per airdrop transaction: well inside a block on both nodes. */
const BATCH = 200;
const SUPPLY = 10n ** 30n;

const holders = Array.from({ length: HOLDERS }, (_, i) => getAddress(keccak256(toUtf8Bytes(`holder ${i}`)).slice(0, 42)));
const sorted = [...holders].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
/** Approved with an Approval event each: the deployer's allowances of two holders high in key order. */
const SPENDERS = [sorted[HOLDERS - 1], sorted[HOLDERS - 2]];
/** An allowance set without any event, between the two highest holders: no log names its pair. */
const QUIET = { owner: sorted[HOLDERS - 3], spender: sorted[HOLDERS - 4], value: 777n };

interface Chain {
  url: string;
  token: Deployed;
  deployer: string;
}

let dir: string;
let layoutFile: string;
const chains: Record<'anvil' | 'ganache', Chain> = {} as never;

/** ganache reads 100,000 slots in two minutes or more on a busy machine: a batch of 2,000 waits behind the others in flight. */
const DECODE_TIMEOUT_MS = 300_000;
const REQUEST_TIMEOUT = ['--timeout', '120000'];

const client = (url: string) => new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url, auth: 'none' }, {}));

async function setUp(url: string, compiled: ReturnType<typeof compileFixture>): Promise<Chain> {
  const rpc = client(url);
  const [deployer] = await rpc.call<string[]>('eth_accounts');
  const token = await deploy(rpc, compiled, SOURCE, NAME, SUPPLY);
  for (let i = 0; i < HOLDERS; i += BATCH) await token.send('airdrop', holders.slice(i, i + BATCH), 5n);
  await token.send('approve', SPENDERS[0], 100n);
  await token.send('approve', SPENDERS[1], 250n);
  await token.send('approveQuietly', QUIET.owner, QUIET.spender, QUIET.value);
  return { url, token, deployer: getAddress(deployer) };
}

before(async () => {
  const anvil = process.env.CHAINDECK_TEST_ANVIL_URL;
  const ganache = process.env.CHAINDECK_TEST_GANACHE_URL;
  assert.ok(anvil && ganache, 'the harness did not start the nodes');
  await buildCli();
  const compiled = compileFixture('AirdropToken.sol');
  dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-keys-'));
  layoutFile = writeArtifacts(dir, compiled, SOURCE, NAME).solcOutput;
  [chains.anvil, chains.ganache] = await Promise.all([setUp(anvil, compiled), setUp(ganache, compiled)]);
});

after(() => {
  closeIdleConnections();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Element = { label: string; value: Record<string, unknown> };
const valueOf = (out: Element[], label: string) => out.find((v) => v.label === label)?.value;

for (const kind of ['anvil', 'ganache'] as const) {
  describe(`mapping keys on ${kind}`, () => {
    test('both allowances an Approval names are found though every pair of the 1,000 holders exceeds the bound; the search stopping is a warning naming --keys', async () => {
      const chain = chains[kind];
      const run = await runCli(
        ['storage-decode', '--rpc', chain.url, '--address', chain.token.address, '--layout', layoutFile, '--contract', NAME, ...REQUEST_TIMEOUT],
        {},
        DECODE_TIMEOUT_MS,
      );
      assert.equal(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout) as Element[];
      assert.deepEqual(valueOf(out, '_allowances'), { [chain.deployer]: { [SPENDERS[0]]: '100', [SPENDERS[1]]: '250' } }, 'the quiet allowance is no pair a log names');
      const balances = valueOf(out, '_balances')!;
      assert.equal(Object.keys(balances).length, HOLDERS + 1);
      for (const h of holders) assert.equal(balances[h], '5', h);
      assert.equal(balances[chain.deployer], String(SUPPLY - 5n * BigInt(HOLDERS)));
      assert.deepEqual(run.stderr.trimEnd().split('\n'), ['Warning: _allowances: search stopped at 100,000 combinations of candidate keys; name the keys wanted with --keys']);
    });
  });
}

describe('mapping keys given by the user, on anvil', () => {
  test('--keys names the spender no event names: paired with every holder before the wide search, its allowance is found', async () => {
    const chain = chains.anvil;
    const run = await runCli(
      ['storage-decode', '--rpc', chain.url, '--address', chain.token.address, '--layout', layoutFile, '--contract', NAME, '--keys', QUIET.spender],
      {},
      DECODE_TIMEOUT_MS,
    );
    assert.equal(run.code, 0, run.stderr);
    const allowances = valueOf(JSON.parse(run.stdout) as Element[], '_allowances');
    assert.deepEqual(allowances, {
      [chain.deployer]: { [SPENDERS[0]]: '100', [SPENDERS[1]]: '250' },
      [QUIET.owner]: { [QUIET.spender]: String(QUIET.value) },
    });
  });
});
