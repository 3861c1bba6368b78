/**
 * The pick by code: at a proxy the contract whose code is the implementation's, never the proxy's
 * own; at a diamond every facet's, merged; elsewhere the address's own; none matching a usage
 * error listing the candidates. The eip1967 elements: three addresses appended last.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import type { RpcCall } from '../../../../../src/core/rpc/types';
import type { BatchItem } from '../../../../../src/core/rpc/jsonrpc';
import { candidates, choicesByCode, mergeLayouts, pickLayout, withEip1967Elements } from '../../../../../src/core/storage/deployed/pick';
import type { ProxyInfo } from '../../../../../src/core/storage/deployed/proxy';
import { LayoutFileError, type ContractLayout } from '../../../../../src/core/storage/layout';
import type { StorageRpc } from '../../../../../src/core/storage/types';

const addr = (seed: string) => getAddress(keccak256(toUtf8Bytes(seed)).slice(0, 42));
const PROXY = addr('proxy');
const IMPL = addr('impl');
/** Runtime code of the contract `n`, with a CBOR metadata tail that differs per build (ignored by the match). */
const code = (n: number, meta = 'aa') => `0x6080604052${n.toString(16).padStart(4, '0')}a1${meta}cc0003`;

function layout(name: string, n: number, labels: string[] = [name.toLowerCase()]): ContractLayout {
  return {
    contractName: name,
    source: `contracts/${name}.sol`,
    storage: labels.map((label, i) => ({ label, slot: String(i), offset: 0, type: 'uint256', typeId: 't_uint256', numberOfBytes: 32 })),
    types: { t_uint256: { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' } },
    deployedBytecode: code(n, 'bb'),
    variableRanges: [],
  };
}
const PROXY_LAYOUT = { ...layout('Proxy', 1, []), types: {} };
const TOKEN = layout('Token', 2);
const OTHER = layout('Other', 3);

/** A node whose eth_getCode answers from `codes`; records the calls. */
function node(codes: Record<string, string>) {
  const calls: RpcCall[] = [];
  const rpc: StorageRpc = {
    call: () => Promise.reject(new Error('no single calls')),
    batch: (cs) => {
      calls.push(...cs);
      return Promise.resolve(cs.map((c) => ({ result: codes[(c.params as string[])[0]] ?? '0x' }) as BatchItem));
    },
  };
  return { rpc, calls };
}
const proxyInfo = (implementation: string): ProxyInfo => ({ kind: 'erc1967', address: PROXY, code: code(1), implementation });

describe('pickLayout', () => {
  test('at an ERC-1967 proxy: the contract with the implementation’s code (asked for once, at the block), the eip1967 elements last', async () => {
    const { rpc, calls } = node({ [IMPL]: code(2) });
    const picked = await pickLayout(rpc, proxyInfo(IMPL), [PROXY_LAYOUT, TOKEN, OTHER], 7);
    assert.deepEqual(
      picked.picked.map((l) => l.contractName),
      ['Token'],
    );
    assert.deepEqual(calls, [{ method: 'eth_getCode', params: [IMPL, '0x7'] }]);
    assert.deepEqual(
      picked.layout.storage.map((v) => v.label),
      ['token', 'eip1967.proxy.implementation', 'eip1967.proxy.admin', 'eip1967.proxy.beacon'],
    );
    assert.equal(picked.description, `ERC-1967 proxy → implementation ${IMPL} (Token)`);
  });

  test('a plain contract: its own code, no round trip, no eip1967 elements', async () => {
    const { rpc, calls } = node({});
    const picked = await pickLayout(rpc, { kind: 'none', address: PROXY, code: code(3) }, [TOKEN, OTHER], 7);
    assert.deepEqual(
      picked.picked.map((l) => l.contractName),
      ['Other'],
    );
    assert.equal(calls.length, 0);
    assert.deepEqual(picked.layout, OTHER);
    assert.equal(picked.description, undefined);
  });

  test('a diamond: each facet’s contract, their layouts merged (a variable both declare once); a facet of unknown code named', async () => {
    const facets = [addr('a'), addr('b'), addr('c')];
    const { rpc } = node({ [facets[0]]: code(2), [facets[1]]: code(3), [facets[2]]: code(9) });
    const a = layout('A', 2, ['shared', 'a']);
    const b = layout('B', 3, ['shared', 'b']);
    const picked = await pickLayout(rpc, { kind: 'diamond', address: PROXY, code: code(1), facets }, [a, b], 7);
    assert.deepEqual(
      picked.layout.storage.map((v) => `${v.label}@${v.slot}`),
      ['shared@0', 'a@1', 'b@1'],
    );
    assert.deepEqual(picked.unmatched, [facets[2]]);
    assert.equal(picked.description, 'diamond with 3 facets (A, B)');
  });

  test('the proxy’s own contract is never the pick at a proxy, even one pointing at itself', async () => {
    const stateful = layout('Proxy', 1, ['owner']);
    const { rpc } = node({ [PROXY]: code(1) });
    await assert.rejects(pickLayout(rpc, proxyInfo(PROXY), [stateful, TOKEN], 7), (err: unknown) => err instanceof LayoutFileError && err.reason === 'ambiguous');
    // A diamond listing itself as a facet (immutable functions): its own contract is matched as any facet.
    const diamond = await pickLayout(rpc, { kind: 'diamond', address: PROXY, code: code(1), facets: [PROXY] }, [stateful, TOKEN], 7);
    assert.deepEqual(
      diamond.picked.map((l) => l.contractName),
      ['Proxy'],
    );
  });

  test('an implementation without code: the candidates listed, and the message says it has none', async () => {
    const { rpc } = node({});
    await assert.rejects(pickLayout(rpc, proxyInfo(IMPL), [TOKEN, OTHER], 7, { file: 'out.json' }), (err: unknown) => {
      assert.ok(err instanceof LayoutFileError && err.reason === 'ambiguous');
      assert.ok(err.message.startsWith(`no contract in out.json has the code of ${IMPL} (ERC-1967 proxy → implementation ${IMPL}; ${IMPL} has no code at block 7): choose one`), err.message);
      return true;
    });
  });

  test('--contract chosen: used as is, nothing asked', async () => {
    const { rpc, calls } = node({});
    const picked = await pickLayout(rpc, proxyInfo(IMPL), [TOKEN, OTHER], 7, { chosen: OTHER });
    assert.equal(picked.picked[0], OTHER);
    assert.equal(calls.length, 0);
  });

  test('a beacon proxy whose beacon answered no implementation: decoded with the contract named, eip1967 elements included; by code, an error saying why', async () => {
    const { rpc, calls } = node({});
    const broken: ProxyInfo = { kind: 'beacon', address: PROXY, code: code(1), beacon: IMPL, beaconFailure: `its beacon ${IMPL} answered no implementation() at block 7` };
    const picked = await pickLayout(rpc, broken, [TOKEN, OTHER], 7, { chosen: TOKEN });
    assert.deepEqual(
      picked.layout.storage.map((v) => v.label),
      ['token', 'eip1967.proxy.implementation', 'eip1967.proxy.admin', 'eip1967.proxy.beacon'],
    );
    await assert.rejects(pickLayout(rpc, broken, [TOKEN, OTHER], 7), {
      message: `${PROXY} is a beacon proxy, but its beacon ${IMPL} answered no implementation() at block 7: name its contract with --contract`,
    });
    assert.equal(calls.length, 0);
  });

  test('one candidate with state: it, without matching', async () => {
    const { rpc, calls } = node({});
    const picked = await pickLayout(rpc, proxyInfo(IMPL), [PROXY_LAYOUT, TOKEN], 7);
    assert.equal(picked.picked[0], TOKEN);
    assert.equal(calls.length, 0);
  });

  test('none with the code: an ambiguous LayoutFileError listing the candidates; no code at all: a no-code error', async () => {
    const { rpc } = node({ [IMPL]: code(5) });
    await assert.rejects(pickLayout(rpc, proxyInfo(IMPL), [PROXY_LAYOUT, TOKEN, OTHER], 7, { file: 'out.json' }), (err: unknown) => {
      assert.ok(err instanceof LayoutFileError && err.reason === 'ambiguous');
      assert.equal(
        err.message,
        `no contract in out.json has the code of ${IMPL} (ERC-1967 proxy → implementation ${IMPL}): choose one with --contract NAME or PATH:NAME (contracts/Token.sol:Token, contracts/Other.sol:Other)`,
      );
      return true;
    });
    await assert.rejects(pickLayout(rpc, { kind: 'none', address: PROXY, code: '0x' }, [TOKEN, OTHER], 7), new RegExp(`${PROXY} has no code at block 7`));
  });

  test('an implementation slot pointing at the proxy itself (a lying or broken proxy): the proxy’s own contract is not picked; the message says why', async () => {
    const { rpc } = node({ [PROXY]: code(1) });
    const proxyWithState = layout('Proxy', 1);
    await assert.rejects(pickLayout(rpc, proxyInfo(PROXY), [proxyWithState, TOKEN], 7, { file: 'out.json' }), (err: unknown) => {
      assert.ok(err instanceof LayoutFileError && err.reason === 'ambiguous');
      assert.equal(
        err.message,
        `no contract in out.json has the code of ${PROXY} (ERC-1967 proxy → implementation ${PROXY}; the implementation is the proxy itself): choose one with --contract NAME or PATH:NAME (contracts/Proxy.sol:Proxy, contracts/Token.sol:Token)`,
      );
      return true;
    });
  });
});

describe('layout helpers', () => {
  test('withEip1967Elements: three address elements at the ERC-1967 slots, offset 0, after every variable; t_address added', () => {
    const l = withEip1967Elements({ ...TOKEN, types: { t_uint256: TOKEN.types.t_uint256 } });
    assert.deepEqual(
      l.storage.slice(1).map((v) => [v.label, v.type, `0x${BigInt(v.slot).toString(16)}`, v.offset]),
      ['implementation', 'admin', 'beacon'].map((n) => [`eip1967.proxy.${n}`, 'address', `0x${(BigInt(keccak256(toUtf8Bytes(`eip1967.proxy.${n}`))) - 1n).toString(16)}`, 0]),
    );
    assert.deepEqual(l.types.t_address, { encoding: 'inplace', label: 'address', numberOfBytes: '20' });
  });

  test('candidates: those with state; all when none has; mergeLayouts of one is that one', () => {
    assert.deepEqual(candidates([PROXY_LAYOUT, TOKEN]), [TOKEN]);
    assert.deepEqual(candidates([PROXY_LAYOUT]), [PROXY_LAYOUT]);
    assert.equal(mergeLayouts([TOKEN]), TOKEN);
  });
});

describe('choicesByCode (the editor’s picker)', () => {
  const plain: ProxyInfo = { kind: 'none', address: PROXY, code: code(3) };
  const OWNABLE = layout('Ownable', 4);
  const ERC20 = layout('ERC20', 5);
  const DEMO = layout('DemoToken', 6);

  test('one contract with the code: picked, nothing asked', () => {
    assert.deepEqual(choicesByCode(plain, [OWNABLE, ERC20, DEMO], [[DEMO]]).picked, [DEMO]);
  });

  test('several with the same code: asked, those listed first and the rest after, in the file’s order', () => {
    const twin = layout('DemoTokenCopy', 6);
    const choices = choicesByCode(plain, [OWNABLE, ERC20, DEMO, twin], [[DEMO, twin]]);
    assert.equal(choices.picked, undefined);
    assert.deepEqual(
      [...choices.matching, ...choices.others].map((l) => l.contractName),
      ['DemoToken', 'DemoTokenCopy', 'Ownable', 'ERC20'],
    );
  });

  test('none with the code: asked among those with state; a diamond with any facet matched is decided', () => {
    const choices = choicesByCode(plain, [PROXY_LAYOUT, OWNABLE, ERC20], [[]]);
    assert.equal(choices.picked, undefined);
    assert.deepEqual(
      choices.others.map((l) => l.contractName),
      ['Ownable', 'ERC20'],
    );
    const diamond: ProxyInfo = { kind: 'diamond', address: PROXY, code: code(1), facets: [addr('a'), addr('b')] };
    assert.deepEqual(choicesByCode(diamond, [OWNABLE, ERC20], [[OWNABLE], []]).picked, [OWNABLE]);
  });
});
