/**
 * `chaindeck storage-compat --rpc --address` as users run it (the built dist/cli.js), on real
 * anvil and ganache: BoxV1 (test/fixtures/solidity/UpgradeCompat.sol, compiled here) deployed,
 * checked against BoxV2Appended, which adds `fee`. Zero there: fine (exit 0). After BoxV1 itself
 * writes that slot (its `poke`), or anvil_setStorageAt does: a nonzero-slot error (exit 1) saying
 * what the slot holds. The same for an ERC-7201 namespace grown at its end (NsV1 → NsV2Appended),
 * its root computed here by EIP-7201's formula. Slots are solc's or the EIP's, not Chaindeck's.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AbiCoder, keccak256, toUtf8Bytes } from 'ethers';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { buildCli, runCli } from '../support/cli';
import { compileFixture, deploy, type SolcCompiled } from '../support/solidity';

const SOURCE = 'contracts/UpgradeCompat.sol';
const NODES = { anvil: process.env.CHAINDECK_TEST_ANVIL_URL!, ganache: process.env.CHAINDECK_TEST_GANACHE_URL! };

let compiled: SolcCompiled;
let dir: string;
let file: string;
let feeSlot: bigint;
/** EIP-7201's root of the fixture's namespace, computed here by the EIP's formula. */
const NS_ROOT = BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['uint256'], [BigInt(keccak256(toUtf8Bytes('example.compat.main'))) - 1n]))) & ~0xffn;

before(async () => {
  assert.ok(NODES.anvil && NODES.ganache, 'the harness did not start the nodes');
  await buildCli();
  compiled = compileFixture('UpgradeCompat.sol');
  dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-compat-'));
  file = path.join(dir, 'solc-output.json');
  writeFileSync(file, JSON.stringify(compiled.output));
  const layout = compiled.output.contracts[SOURCE].BoxV2Appended.storageLayout as { storage: { label: string; slot: string }[] };
  feeSlot = BigInt(layout.storage.find((v) => v.label === 'fee')!.slot);
});

after(() => {
  closeIdleConnections();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const client = (url: string) => new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url, auth: 'none' }, {}));
const compat = (url: string, address: string, to = 'BoxV2Appended', from = 'BoxV1') =>
  runCli(['storage-compat', '--from', `${file}:${from}`, '--to', `${file}:${to}`, '--rpc', url, '--address', address, '--format', 'json']);

for (const [kind, url] of Object.entries(NODES)) {
  describe(`storage-compat with a node (${kind})`, () => {
    test('the appended slot zero: exit 0, no finding; written by V1: a nonzero-slot error with what it holds', async () => {
      const box = await deploy(client(url), compiled, SOURCE, 'BoxV1');
      const fine = await compat(url, box.address);
      assert.equal(fine.code, 0, fine.stderr);
      assert.deepEqual(JSON.parse(fine.stdout), []);

      const block = await box.send('poke', feeSlot, 42n);
      const dirty = await compat(url, box.address);
      assert.equal(dirty.code, 1, dirty.stderr);
      assert.deepEqual(JSON.parse(dirty.stdout), [
        { kind: 'nonzero-slot', path: 'fee', before: `slot ${feeSlot} holds 0x2a at block ${block}`, after: `uint256 fee at slot ${feeSlot}`, severity: 'error' },
      ]);
      const text = await runCli(['storage-compat', '--from', `${file}:BoxV1`, '--to', `${file}:BoxV2Appended`, '--rpc', url, '--address', box.address]);
      assert.equal(text.code, 1);
      assert.equal(text.stdout.split('\n')[0], `error: nonzero-slot fee: slot ${feeSlot} holds 0x2a at block ${block} → uint256 fee at slot ${feeSlot}`);
    });

    test('a namespace grown at its end: its members in use are fine; its new member written already is a nonzero-slot error', async () => {
      const ns = await deploy(client(url), compiled, SOURCE, 'NsV1');
      await ns.send('setTotal', 99n);
      const fine = await compat(url, ns.address, 'NsV2Appended', 'NsV1');
      assert.deepEqual([fine.code, JSON.parse(fine.stdout)], [0, []], fine.stderr);
      const extra = NS_ROOT + 2n; // season and open share the root's slot, total the next
      const block = await ns.send('poke', extra, 5n);
      const dirty = await compat(url, ns.address, 'NsV2Appended', 'NsV1');
      assert.equal(dirty.code, 1, dirty.stderr);
      assert.deepEqual(JSON.parse(dirty.stdout), [
        {
          kind: 'nonzero-slot',
          path: 'erc7201:example.compat.main.extra',
          before: `slot 0x${extra.toString(16)} holds 0x5 at block ${block}`,
          after: `uint256 extra at slot 0x${extra.toString(16)}`,
          severity: 'error',
        },
      ]);
    });

    test('an insert is a layout error whatever the chain holds; no code at the address: exit 1 in one line', async () => {
      const box = await deploy(client(url), compiled, SOURCE, 'BoxV1');
      await box.send('poke', feeSlot, 7n);
      // BoxV2Inserted moves total and balances: its inserted fee is an error; nothing is appended, so nothing is read.
      const inserted = await compat(url, box.address, 'BoxV2Inserted');
      assert.equal(inserted.code, 1);
      assert.deepEqual(
        (JSON.parse(inserted.stdout) as { kind: string }[]).map((f) => f.kind),
        ['inserted'],
      );
      const nobody = '0x000000000000000000000000000000000000dEaD';
      const none = await compat(url, nobody);
      assert.equal(none.code, 1);
      assert.equal(none.stdout, '');
      assert.match(none.stderr, /^chaindeck storage-compat: no contract at 0x000000000000000000000000000000000000dEaD at block \d+: its storage cannot be checked\n$/);
    });
  });
}

test('anvil_setStorageAt: a slot the new layout adds set by the node, then cleared', async () => {
  const c = client(NODES.anvil);
  const box = await deploy(c, compiled, SOURCE, 'BoxV1');
  const slotKey = `0x${feeSlot.toString(16).padStart(64, '0')}`;
  await c.call('anvil_setStorageAt', [box.address, slotKey, `0x${(1n << 200n).toString(16).padStart(64, '0')}`]);
  const dirty = await compat(NODES.anvil, box.address);
  assert.equal(dirty.code, 1);
  assert.match((JSON.parse(dirty.stdout) as { before: string }[])[0].before, new RegExp(`^slot ${feeSlot} holds 0x1${'0'.repeat(50)} at block \\d+$`));
  await c.call('anvil_setStorageAt', [box.address, slotKey, `0x${'0'.repeat(64)}`]);
  const clean = await compat(NODES.anvil, box.address);
  assert.deepEqual([clean.code, JSON.parse(clean.stdout)], [0, []]);
});
