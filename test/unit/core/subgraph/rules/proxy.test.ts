// The EIP-1967 proxy hint (core): where it is said, how the implementation slot is read from a
// node (a scripted loopback node), and how often a node is asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeConfig } from '../../../../../src/core/nodes/model';
import type { ResolvedEndpoint } from '../../../../../src/core/rpc/endpoint';
import { EIP1967_IMPLEMENTATION_SLOT } from '../../../../../src/core/storage/slots';
import { parseManifest } from '../../../../../src/core/subgraph/manifest/manifestDoc';
import { PROXY_RETRY_AFTER_MS, proxyHints, ProxyLookups, readImplementation } from '../../../../../src/core/subgraph/rules/proxy';
import { reply, startScriptedNode, type ScriptedNode } from '../../../../support/rpcNode';

const PROXY = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const OTHER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const IMPLEMENTATION = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const MANIFEST = `specVersion: 1.3.0
dataSources:
  - kind: ethereum
    name: Token
    source:
      address: "${PROXY}"
      abi: ERC20
  - kind: ethereum
    name: Plain
    source:
      address: "${OTHER}"
      abi: ERC20
`;

const endpoint = (node: ScriptedNode): ResolvedEndpoint => ({ httpUrl: node.url, wsUrl: node.url.replace('http', 'ws'), headers: {}, auth: 'none', secrets: [] });
const evmNode = (id: string) => ({ id, name: `node ${id}`, protocol: 'evm' }) as NodeConfig;
const settle = () => new Promise((r) => setImmediate(r));

test('a hint on each data source address known to be a proxy, at the address, naming the implementation', () => {
  const doc = parseManifest(MANIFEST);
  const hints = proxyHints('/p/subgraph.yaml', doc, (address) => (address === PROXY ? IMPLEMENTATION : undefined));
  assert.deepEqual(hints, [
    {
      file: '/p/subgraph.yaml',
      range: { start: { line: 5, character: 15 }, end: { line: 5, character: 59 } },
      severity: 'info',
      code: 'eip1967-proxy',
      message: `This address is an EIP-1967 proxy; the ABI must come from the implementation contract ${IMPLEMENTATION} (the proxy's address is the one that emits events)`,
    },
  ]);
  assert.deepEqual(
    proxyHints('/p/subgraph.yaml', doc, () => undefined),
    [],
  );
  assert.deepEqual(
    proxyHints('/p/subgraph.yaml', undefined, () => IMPLEMENTATION),
    [],
  );
  assert.deepEqual(
    proxyHints('/p/subgraph.yaml', parseManifest('dataSources: 3\n'), () => IMPLEMENTATION),
    [],
  );
});

test('the implementation is read from the EIP-1967 slot at latest, the address in lower case; an empty slot or a word wider than an address is no proxy', async () => {
  const words = [`0x${'0'.repeat(24)}${IMPLEMENTATION.slice(2).toLowerCase()}`, `0x${'0'.repeat(64)}`, `0x${'f'.repeat(64)}`];
  const node = await startScriptedNode((r, i) => ({ body: reply(r, { result: words[i] }) }));
  try {
    assert.equal(await readImplementation(endpoint(node), PROXY), IMPLEMENTATION);
    assert.equal(await readImplementation(endpoint(node), PROXY), undefined);
    assert.equal(await readImplementation(endpoint(node), PROXY), undefined);
    const { method, params } = JSON.parse(node.seen[0].body) as { method: string; params: unknown[] };
    assert.equal(method, 'eth_getStorageAt');
    assert.deepEqual(params, [PROXY.toLowerCase(), EIP1967_IMPLEMENTATION_SLOT, 'latest']);
  } finally {
    await node.close();
  }
});

test('a node that fails the read fails it once, without retries', async () => {
  const node = await startScriptedNode(() => ({ status: 503, body: 'busy' }));
  try {
    await assert.rejects(readImplementation(endpoint(node), PROXY));
    assert.equal(node.seen.length, 1);
  } finally {
    await node.close();
  }
});

test('each node and address is asked once: the answer is kept, and a proxy found asks for the hints again', async () => {
  const asked: string[] = [];
  let found = 0;
  const lookups = new ProxyLookups(
    async (node, address) => (asked.push(`${node.id} ${address}`), address.toLowerCase() === PROXY.toLowerCase() ? IMPLEMENTATION : undefined),
    () => found++,
  );
  const a = evmNode('a');
  assert.equal(lookups.implementation(a, PROXY), undefined, 'never waited for');
  assert.equal(lookups.implementation(a, PROXY), undefined);
  await settle();
  assert.equal(lookups.implementation(a, PROXY), IMPLEMENTATION);
  assert.equal(lookups.implementation(a, PROXY.toLowerCase()), IMPLEMENTATION);
  assert.deepEqual(lookups.describe(a, PROXY), { implementation: IMPLEMENTATION, node: 'node a' });
  lookups.implementation(a, OTHER);
  lookups.implementation(a, 'not-an-address');
  lookups.implementation(evmNode('b'), PROXY);
  await settle();
  assert.equal(lookups.implementation(a, OTHER), undefined);
  assert.equal(lookups.describe(a, OTHER), undefined);
  assert.deepEqual(asked, [`a ${PROXY}`, `a ${OTHER}`, `b ${PROXY}`]);
  assert.equal(found, 2, 'the plain address found no proxy');
});

test('a failed read is tried again only a minute later; answers forgotten (the nodes changed) are asked again, and a read under way then is dropped', async () => {
  let now = 1_000_000;
  let fail = true;
  let asked = 0;
  const lookups = new ProxyLookups(
    async () => {
      asked++;
      if (fail) throw new Error('down');
      return IMPLEMENTATION;
    },
    () => undefined,
    () => now,
  );
  const a = evmNode('a');
  lookups.implementation(a, PROXY);
  await settle();
  fail = false;
  now += PROXY_RETRY_AFTER_MS - 1;
  assert.equal(lookups.implementation(a, PROXY), undefined);
  assert.equal(asked, 1);
  now += 1;
  lookups.implementation(a, PROXY);
  assert.equal(asked, 2);
  lookups.clear();
  await settle();
  assert.equal(lookups.describe(a, PROXY), undefined, 'the read under the old nodes is dropped');
  lookups.implementation(a, PROXY);
  await settle();
  assert.equal(asked, 3);
  assert.equal(lookups.implementation(a, PROXY), IMPLEMENTATION);
});
