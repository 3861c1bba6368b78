import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AbiCoder, getAddress, Interface } from 'ethers';
import { cachedCallsSql, callCacheTable, decodeReturn, MAX_CACHED_CALLS, namespaceSql, parseCachedCalls } from '../../../../../src/core/indexing/replay/callCache';
import type { CaptureSource } from '../../../../../src/core/gndtest/capture/manifest';

const coder = AbiCoder.defaultAbiCoder();
const TOKEN = new Interface(['function owner() view returns (address)', 'function pair() view returns (address a, uint112 reserve)', 'function transfer(address to, uint256 amount)']);

test('a return value one function of the ABI gives decodes with its names; the others stay raw', () => {
  const owner = coder.encode(['address'], ['0x00000000000000000000000000000000000000aa']);
  assert.deepEqual(decodeReturn(owner, TOKEN), { functions: ['owner()'], values: [{ name: 'out0', type: 'address', value: getAddress('0x00000000000000000000000000000000000000aa') }] });
  const pair = coder.encode(['address', 'uint112'], ['0x00000000000000000000000000000000000000bb', 7n]);
  assert.deepEqual(decodeReturn(pair, TOKEN)?.values, [
    { name: 'a', type: 'address', value: getAddress('0x00000000000000000000000000000000000000bb') },
    { name: 'reserve', type: 'uint112', value: '7' },
  ]);
  // A word with high bytes set is no address: it does not re-encode to itself.
  assert.equal(decodeReturn(`0x${'ff'.repeat(32)}`, TOKEN), undefined);
  assert.equal(decodeReturn('0x', TOKEN), undefined);
  assert.equal(decodeReturn('not hex', TOKEN), undefined);
});

test('two functions with the same output shape decode it, both named; different shapes that fit stay raw', () => {
  const profiled = new Interface(['function total() view returns (uint256)', 'function valueAt(uint256 i) view returns (uint256)']);
  assert.deepEqual(decodeReturn(coder.encode(['uint256'], [42n]), profiled), { functions: ['total()', 'valueAt(uint256)'], values: [{ name: 'out0', type: 'uint256', value: '42' }] });
  const mixed = new Interface(['function a() view returns (uint256)', 'function b() view returns (bytes32)']);
  assert.equal(decodeReturn(coder.encode(['uint256'], [1n]), mixed), undefined);
});

const source = (name: string, address: string | undefined, abi: string, template = false): CaptureSource => ({
  name,
  template,
  address,
  abi,
  startBlock: 0,
  topics: new Set(),
  blockHandlers: false,
  callHandlers: false,
});

test('rows name the data source of their address and decode with its ABI; unknown addresses stay raw; bounded', () => {
  const manifest = { sources: [source('Token', '0x00000000000000000000000000000000000000c1', 'Token'), source('Pool', undefined, 'Token', true)], abis: new Map([['Token', TOKEN]]) };
  const owner = coder.encode(['address'], ['0x00000000000000000000000000000000000000aa']);
  const rows = [
    { address: '0x00000000000000000000000000000000000000C1', returned: owner, bytes: 32 },
    { address: '0x00000000000000000000000000000000000000d2', returned: owner, bytes: 32 },
    { address: '0x00000000000000000000000000000000000000c1', returned: owner.slice(0, 10), bytes: 5000 },
  ];
  const { calls, truncated } = parseCachedCalls(JSON.stringify(rows), manifest);
  assert.equal(truncated, false);
  assert.deepEqual(calls[0].sources, ['Token']);
  assert.deepEqual(calls[0].decoded?.functions, ['owner()']);
  assert.deepEqual(calls[1], { address: '0x00000000000000000000000000000000000000d2', sources: [], returned: owner, returnedBytes: 32 });
  assert.equal(calls[2].decoded, undefined, 'a cut return value is not decoded');
  const many = parseCachedCalls(JSON.stringify(Array.from({ length: MAX_CACHED_CALLS + 1 }, () => rows[1])), manifest);
  assert.equal(many.calls.length, MAX_CACHED_CALLS);
  assert.equal(many.truncated, true);
});

test('only graph-node’s own namespaces and network names reach the SQL', () => {
  assert.equal(callCacheTable('chain1'), 'chain1.call_cache');
  assert.equal(callCacheTable('public'), 'public.eth_call_cache');
  assert.equal(callCacheTable('chain1; drop table x'), undefined);
  assert.equal(namespaceSql("main'net"), undefined);
  assert.match(namespaceSql('mainnet') ?? '', /name = 'mainnet'$/);
  assert.match(cachedCallsSql('chain1.call_cache', 7), /where block_number = 7 .* limit 201\)/s);
});
