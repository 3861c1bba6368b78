/**
 * A proxy's upgrade history against a loopback node (what anvil cannot be made to answer: a beacon
 * proxy's beacons and their own upgrades, removed and malformed logs, a node that caps log ranges):
 * the events in chain order, the beacons followed, the logs helper's range splitting reused, and
 * the implementation live at a block.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getAddress } from 'ethers';
import { resolveEndpoint } from '../../../../../src/core/nodes/endpoint';
import { RpcClient } from '../../../../../src/core/rpc/client';
import { BEACON_UPGRADED_TOPIC, implementationAt, upgradeHistory, upgradeOf, UPGRADED_TOPIC, type Upgrade } from '../../../../../src/core/storage/deployed/upgrades';
import { startRpcServer, type RpcServer } from '../../../../support/rpcNode';

const PROXY = getAddress('0x00000000000000000000000000000000000000a1');
const BEACON1 = getAddress('0x00000000000000000000000000000000000000b1');
const BEACON2 = getAddress('0x00000000000000000000000000000000000000b2');
const IMPL = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`);
const topic = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

interface FakeLog {
  address: string;
  topics: string[];
  blockNumber: string;
  logIndex: string;
  transactionHash: string;
  removed?: boolean;
}
const log = (at: string, event: string, arg: string, block: number, index = 0): FakeLog => ({
  address: at.toLowerCase(),
  topics: [event, topic(arg)],
  blockNumber: `0x${block.toString(16)}`,
  logIndex: `0x${index.toString(16)}`,
  transactionHash: hash(block * 100 + index),
});

let node: RpcServer;
let client: RpcClient;
let logs: FakeLog[];
/** The widest range the node answers (a provider's cap); wider ones are refused. */
let cap = Infinity;

before(async () => {
  node = await startRpcServer({
    eth_getLogs: (params) => {
      const [f] = params as { address: string; topics: string[][]; fromBlock: string; toBlock: string }[];
      const from = Number(f.fromBlock);
      const to = Number(f.toBlock);
      if (to - from + 1 > cap) return { error: { code: -32005, message: `query exceeds max block range ${cap}` } };
      const wanted = f.topics[0];
      return { result: logs.filter((l) => l.address === f.address.toLowerCase() && wanted.includes(l.topics[0]) && Number(l.blockNumber) >= from && Number(l.blockNumber) <= to) };
    },
  });
  client = new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url: node.url, auth: 'none' }, {}));
});
after(() => node.close());

describe('upgradeOf', () => {
  test('Upgraded and BeaconUpgraded as upgrades; a removed log, another event, a malformed one: none', () => {
    assert.deepEqual(upgradeOf(log(PROXY, UPGRADED_TOPIC, IMPL(1), 3, 2)), { block: 3, tx: hash(302), logIndex: 2, kind: 'implementation', address: IMPL(1) });
    assert.equal(upgradeOf(log(PROXY, BEACON_UPGRADED_TOPIC, BEACON1, 4))?.kind, 'beacon');
    assert.equal(upgradeOf({ ...log(PROXY, UPGRADED_TOPIC, IMPL(1), 3), removed: true }), undefined);
    assert.equal(upgradeOf(log(PROXY, `0x${'ee'.repeat(32)}`, IMPL(1), 3)), undefined);
    assert.equal(upgradeOf({ ...log(PROXY, UPGRADED_TOPIC, IMPL(1), 3), topics: [UPGRADED_TOPIC, `0x${'ff'.repeat(32)}`] }), undefined, 'a topic that is no address');
    assert.equal(upgradeOf({ ...log(PROXY, UPGRADED_TOPIC, IMPL(1), 3), blockNumber: null }), undefined, 'a pending log');
    assert.equal(upgradeOf('not a log'), undefined);
    // A beacon's BeaconUpgraded is no upgrade of the proxy.
    assert.equal(upgradeOf(log(BEACON1, BEACON_UPGRADED_TOPIC, BEACON2, 4), BEACON1), undefined);
  });
});

describe('upgradeHistory', () => {
  test('a proxy upgraded directly, then moved to a beacon, then to another: its events and each beacon’s own upgrades up to when the proxy left it, in chain order', async () => {
    logs = [
      log(PROXY, UPGRADED_TOPIC, IMPL(1), 2),
      log(PROXY, UPGRADED_TOPIC, IMPL(2), 5),
      log(BEACON1, UPGRADED_TOPIC, IMPL(10), 1), // before the proxy pointed at the beacon
      log(PROXY, BEACON_UPGRADED_TOPIC, BEACON1, 8),
      log(BEACON1, UPGRADED_TOPIC, IMPL(11), 9, 1),
      log(PROXY, BEACON_UPGRADED_TOPIC, BEACON2, 12),
      log(BEACON1, UPGRADED_TOPIC, IMPL(12), 14), // after the proxy left the beacon
      log(BEACON2, UPGRADED_TOPIC, IMPL(20), 11),
    ];
    cap = Infinity;
    const history = await upgradeHistory(client, PROXY.toLowerCase(), 20);
    const brief = history.upgrades.map((u) => [u.block, u.kind, u.address, u.beacon ?? '']);
    assert.deepEqual(brief, [
      [1, 'implementation', IMPL(10), BEACON1],
      [2, 'implementation', IMPL(1), ''],
      [5, 'implementation', IMPL(2), ''],
      [8, 'beacon', BEACON1, ''],
      [9, 'implementation', IMPL(11), BEACON1],
      [11, 'implementation', IMPL(20), BEACON2],
      [12, 'beacon', BEACON2, ''],
    ]);
    assert.deepEqual(history.warnings, []);
    const h = history.upgrades;
    assert.equal(implementationAt(h, 1), undefined, 'before the proxy logged anything');
    assert.deepEqual(implementationAt(h, 4), { implementation: IMPL(1), since: h[1] });
    assert.deepEqual(implementationAt(h, 8), { implementation: IMPL(10), beacon: BEACON1, since: h[3] }, 'the beacon’s implementation when the proxy moved to it');
    assert.deepEqual(implementationAt(h, 10), { implementation: IMPL(11), beacon: BEACON1, since: h[4] }, 'upgraded on the beacon after the move');
    assert.deepEqual(implementationAt(h, 20), { implementation: IMPL(20), beacon: BEACON2, since: h[6] });
  });

  test('a node that caps log ranges: the ranges are halved (the logs helper) and nothing is missed', async () => {
    logs = [log(PROXY, UPGRADED_TOPIC, IMPL(1), 3), log(PROXY, UPGRADED_TOPIC, IMPL(2), 900)];
    cap = 100;
    node.clear();
    const history = await upgradeHistory(client, PROXY, 1000);
    assert.deepEqual(
      history.upgrades.map((u) => u.address),
      [IMPL(1), IMPL(2)],
    );
    assert.ok(history.requests > 10 && history.requests === node.calls.length);
    const [first] = node.calls[0].params as { topics: string[][] }[];
    assert.deepEqual(first.topics, [[UPGRADED_TOPIC, BEACON_UPGRADED_TOPIC]]);
  });

  test('a node that refuses eth_getLogs: a warning naming the blocks left out, no upgrades', async () => {
    logs = [];
    cap = Infinity;
    const saved = node.methods.eth_getLogs;
    node.methods.eth_getLogs = { error: { code: -32000, message: 'logs are pruned' } };
    try {
      const history = await upgradeHistory(client, PROXY, 50);
      assert.deepEqual(history.upgrades, []);
      assert.deepEqual(history.warnings, ["upgrades: eth_getLogs for blocks 0–50 failed (JSON-RPC error -32000: logs are pruned); those blocks' logs are left out"]);
    } finally {
      node.methods.eth_getLogs = saved;
    }
  });
});

test('implementationAt: the last upgrade at or before the block, events of one block in log order', () => {
  const u = (block: number, logIndex: number, address: string): Upgrade => ({ block, logIndex, tx: hash(block), kind: 'implementation', address });
  const h = [u(3, 0, IMPL(1)), u(3, 1, IMPL(2)), u(7, 0, IMPL(3))];
  assert.equal(implementationAt(h, 2), undefined);
  assert.equal(implementationAt(h, 3)?.implementation, IMPL(2));
  assert.equal(implementationAt(h, 6)?.implementation, IMPL(2));
  assert.equal(implementationAt(h, 7)?.implementation, IMPL(3));
});
