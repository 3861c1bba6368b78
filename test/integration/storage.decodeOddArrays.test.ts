/**
 * Arrays whose element size does not divide 32 (`address[]`, `uint24[12]`, `bytes3[]`,
 * `uint96[4]`), compiled here with solc-js and deployed on real anvil: solc packs
 * floor(32 / size) elements per slot, so an element past the first slot's share must be read
 * from the next slot, not from the bytes left over at the top of the first. And a storage-diff
 * whose FROM block precedes the deployment: every variable changes from zero, not "has no code".
 * Expected values come from what the test sent, never from the decoder.
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
import { buildCli, runCli, type CliRun } from '../support/cli';
import { compileSource, deploy, writeArtifacts, type Deployed } from '../support/solidity';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const SOURCE = 'contracts/OddArrays.sol';
const NAME = 'OddArrays';
const CONTRACT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract OddArrays {
    address[] public holders;
    uint24[12] public ticks;
    bytes3[] public codes;
    uint96[4] public mids;
    function fill(address[] calldata h, uint24[12] calldata t, bytes3[] calldata c, uint96[4] calldata m) external {
        holders = h;
        ticks = t;
        codes = c;
        mids = m;
    }
}
`;

const addr = (seed: string) => getAddress(keccak256(toUtf8Bytes(seed)).slice(0, 42));
const HOLDERS = [addr('alice'), addr('bob'), addr('carol')];
const TICKS = Array.from({ length: 12 }, (_, i) => 0x010203 * (i + 1));
const CODES = Array.from({ length: 12 }, (_, i) => `0x${(0xa00000 + i * 0x0101).toString(16)}`);
const MIDS = [1n, 2n ** 96n - 1n, 3n, 4n];

let dir: string;
let foundry: string;
let demo: Deployed;
let deployBlock: number;
let filledBlock: number;

function jsonOf(run: CliRun): unknown[] {
  assert.equal(run.code, 0, run.stderr);
  const parsed = JSON.parse(run.stdout);
  assert.ok(Array.isArray(parsed), run.stdout);
  return parsed;
}

before(async () => {
  assert.ok(ANVIL, 'the harness did not start anvil');
  await buildCli();
  const compiled = compileSource(SOURCE, CONTRACT);
  dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-odd-arrays-'));
  foundry = writeArtifacts(dir, compiled, SOURCE, NAME).foundry;
  const client = new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url: ANVIL, auth: 'none' }, {}));
  demo = await deploy(client, compiled, SOURCE, NAME);
  deployBlock = Number(BigInt(await client.call<string>('eth_blockNumber')));
  filledBlock = await demo.send('fill', HOLDERS, TICKS, CODES, MIDS);
});

after(() => {
  closeIdleConnections();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('arrays whose element size does not divide 32', () => {
  test('storage-decode: one address per slot, ten uint24 or bytes3 per slot, two uint96 per slot', async () => {
    const out = jsonOf(await runCli(['storage-decode', '--rpc', ANVIL, '--address', demo.address, '--layout', foundry, '--block', String(filledBlock)]));
    assert.deepEqual(
      out.map((v) => [(v as { label: string }).label, (v as { value: unknown }).value]),
      [
        ['holders', HOLDERS],
        ['ticks', TICKS.map(String)],
        ['codes', CODES],
        ['mids', MIDS.map(String)],
      ],
    );
  });

  test('storage-diff from the block before the deployment: every element changes from zero (null where the array was shorter)', async () => {
    const run = await runCli(['storage-diff', '--rpc', ANVIL, '--address', demo.address, '--layout', foundry, '--from', String(deployBlock - 1), '--to', String(filledBlock)]);
    const changes = jsonOf(run) as { path: string; before: unknown; after: unknown }[];
    assert.deepEqual(
      changes.map((c) => [c.path, c.before, c.after]),
      [
        ['holders.length', '0', '3'],
        ...HOLDERS.map((h, i) => [`holders[${i}]`, null, h]),
        ...TICKS.map((t, i) => [`ticks[${i}]`, '0', String(t)]),
        ['codes.length', '0', '12'],
        ...CODES.map((c, i) => [`codes[${i}]`, null, c]),
        ...MIDS.map((m, i) => [`mids[${i}]`, '0', String(m)]),
      ],
    );
    assert.equal(run.stderr, '');
  });
});
