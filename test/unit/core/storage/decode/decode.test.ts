/**
 * Storage decoding without a node: value types from word fixtures (the words the layout note read
 * back from anvil), strings short and long, arrays packed and not, structs, mappings whose slots
 * are computed here with keccak256 of the key's encoding, candidate keys per key type, the bounds
 * and their warnings, and the rounds of reads against an in-memory node (how many, and a block
 * that changes under them).
 */
import { AbiCoder, concat, getAddress, keccak256, toUtf8Bytes } from 'ethers';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CLI_HINTS } from '../../../../../src/cli/knobs';
import type { KnobHints } from '../../../../../src/core/knobs';
import { RpcFailure } from '../../../../../src/core/rpc/failure';
import type { RpcCall } from '../../../../../src/core/rpc/types';
import { decodedJson, diffStorage, leaves, readStorage } from '../../../../../src/core/storage/decode/decode';
import { StorageDecodeError } from '../../../../../src/core/storage/decode/errors';
import { keysFor } from '../../../../../src/core/storage/decode/keys';
import { decodeValue, zeroValue } from '../../../../../src/core/storage/decode/values';
import { DEFAULT_LIMITS, Walk, type DecodeLimits } from '../../../../../src/core/storage/decode/walk';
import { StorageRangeError } from '../../../../../src/core/storage/errors';
import type { SolcStorageItem } from '../../../../../src/core/storage/layout';
import type { StorageRpc } from '../../../../../src/core/storage/types';
import { KNOB_HINTS } from '../../../../../src/editor/kit/settingsSchema';
import { item, T, TYPES } from '../../../../support/solcTypes';

const W = (hex: string) => BigInt(hex.startsWith('0x') ? hex : `0x${hex}`);
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const coder = AbiCoder.defaultAbiCoder();
const mapSlot = (keyEncoding: string, slot: bigint) => BigInt(keccak256(concat([keyEncoding, word(slot)])));
const abiWord = (type: string, v: unknown) => coder.encode([type], [v]);

/** One pass over `storage` with the words given (every slot known, zero unless given). */
function walkOnce(
  storage: SolcStorageItem[],
  words: Map<bigint, bigint[]>,
  keyWords: bigint[] = [],
  userKeys: string[] = [],
  limits: Partial<DecodeLimits> = {},
  states = 1,
  hints?: KnobHints,
) {
  const walk = new Walk({
    types: TYPES,
    states,
    words: (s) => words.get(s) ?? new Array<bigint>(states).fill(0n),
    keys: (id) => keysFor(TYPES[id], keyWords, userKeys),
    limits: { ...DEFAULT_LIMITS, ...limits },
    hints,
    hashes: new Map(),
  });
  const nodes = storage.map((s) => walk.variable(s.label, s.type, BigInt(s.slot), s.offset));
  return { walk, nodes };
}

describe('value types from their words', () => {
  test('a packed slot: uint8, uint16, bool, address, enum (the layout note’s slot 0)', () => {
    const w = W('0x000000000000000200000000000000000000000000000000deadbeef01223311');
    assert.equal(decodeValue(TYPES.t_uint8, w, 0), '17');
    assert.equal(decodeValue(TYPES.t_uint16, w, 1), String(0x2233));
    assert.equal(decodeValue(TYPES.t_bool, w, 3), true);
    assert.equal(decodeValue(TYPES.t_address, w, 4), getAddress('0x00000000000000000000000000000000deadbeef'));
    assert.equal(decodeValue(TYPES['t_enum(Kind)12'], w, 24), '2');
  });

  test('signed integers: two’s complement within their own width, not across the slot', () => {
    const w = W('0xfffffffffffffed4fe');
    assert.equal(decodeValue(TYPES.t_int8, w, 0), '-2');
    assert.equal(decodeValue(TYPES.t_int64, w, 1), '-300');
    assert.equal(decodeValue(TYPES.t_int256, W(`0x${'f'.repeat(63)}b`), 0), '-5');
    assert.equal(decodeValue(TYPES.t_int8, 0x7fn, 0), '127');
    assert.equal(decodeValue(TYPES.t_int8, 0x80n, 0), '-128');
  });

  test('bytesN as lowercase hex of N bytes; contracts as EIP-55; a user-defined value type as its bytes; zero values', () => {
    assert.equal(decodeValue(TYPES.t_bytes4, W('0xDEADBEEF') << 8n, 1), '0xdeadbeef');
    assert.equal(decodeValue(TYPES.t_bytes32, W(`0x${'ab'.repeat(32)}`), 0), `0x${'ab'.repeat(32)}`);
    assert.equal(decodeValue(TYPES['t_contract(IFoo)7'], W('0x5fbdb2315678afecb367f032d93f642f64180aa3'), 0), '0x5FbDB2315678afecb367f032d93F642f64180aa3');
    assert.equal(decodeValue(TYPES['t_userDefinedValueType(Price)3'], 12345n, 0), '0x000000000000000000003039');
    assert.equal(
      decodeValue(T('function (uint256) external returns (uint256)', 24), (W('0x5fbdb2315678afecb367f032d93f642f64180aa3') << 32n) | 0x12345678n, 0),
      '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    );
    assert.deepEqual([TYPES.t_uint256, TYPES.t_bool, TYPES.t_address, TYPES.t_bytes4, TYPES.t_string_storage, TYPES.t_bytes_storage].map(zeroValue), [
      '0',
      false,
      '0x0000000000000000000000000000000000000000',
      '0x00000000',
      '',
      '0x',
    ]);
  });
});

describe('strings and bytes', () => {
  test('short: data left-aligned, length × 2 in the lowest byte', () => {
    const words = new Map([
      [0n, [W('0x68656c6c6f00000000000000000000000000000000000000000000000000000a')]],
      [1n, [W('0xc0ffee0000000000000000000000000000000000000000000000000000000006')]],
    ]);
    const { nodes } = walkOnce([item('s', 0, 0, 't_string_storage'), item('b', 1, 0, 't_bytes_storage')], words);
    assert.deepEqual(
      nodes.map((n) => (n.kind === 'value' ? n.values[0] : undefined)),
      ['hello', '0xc0ffee'],
    );
  });

  test('long: length × 2 + 1 in the slot, the data from keccak256(slot), the last word zero-padded; UTF-8 kept', () => {
    const text = 'Grüße — forty-seven bytes of text, or so ✓✓';
    const data = Buffer.from(toUtf8Bytes(text));
    const base = BigInt(keccak256(word(3n)));
    const words = new Map<bigint, bigint[]>([[3n, [BigInt(data.length * 2 + 1)]]]);
    for (let i = 0; i * 32 < data.length; i++)
      words.set(base + BigInt(i), [
        W(
          `0x${data
            .subarray(i * 32, i * 32 + 32)
            .toString('hex')
            .padEnd(64, '0')}`,
        ),
      ]);
    const { nodes, walk } = walkOnce([item('s', 3, 0, 't_string_storage')], words);
    assert.equal(nodes[0].kind === 'value' && nodes[0].values[0], text);
    assert.equal(walk.warnings.size, 0);
  });

  test('a string longer than the bound is cut, with a warning naming it', () => {
    const { nodes, walk } = walkOnce([item('s', 0, 0, 't_string_storage')], new Map([[0n, [BigInt(100 * 2 + 1)]]]), [], [], { maxBytes: 40 });
    assert.equal(nodes[0].kind === 'value' && (nodes[0].values[0] as string).length, 40);
    assert.deepEqual([...walk.warnings], ['s: 100 bytes, the first 40 read']);
  });
});

describe('arrays and structs', () => {
  test('uint8[5] packs from the right; uint32[] packs in its data; uint128[] two to a slot', () => {
    const d32 = BigInt(keccak256(word(1n)));
    const d128 = BigInt(keccak256(word(2n)));
    const words = new Map([
      [0n, [W('0x0504030201')]],
      [1n, [3n]],
      [d32, [W('0x000000a3000000a2000000a1')]],
      [2n, [3n]],
      [d128, [(2n << 128n) | 1n]],
      [d128 + 1n, [3n]],
    ]);
    const { nodes } = walkOnce(
      [item('small', 0, 0, 't_array(t_uint8)5_storage'), item('dyn', 1, 0, 't_array(t_uint32)dyn_storage'), item('mid', 2, 0, 't_array(t_uint128)dyn_storage')],
      words,
    );
    const reading = {
      address: '',
      blocks: [],
      warnings: [],
      stats: { roundTrips: 0, requests: 0, reads: 0 },
      variables: nodes.map((node, i) => ({ label: ['small', 'dyn', 'mid'][i], type: node.type, slot: node.slot, offset: 0, node })),
    };
    assert.deepEqual(
      decodedJson(reading).map((v) => v.value),
      [
        ['1', '2', '3', '4', '5'],
        ['161', '162', '163'],
        ['1', '2', '3'],
      ],
    );
  });

  test('elements whose size does not divide 32: floor(32 / size) per slot, the next element in the next slot (address[], uint24[12], bytes3[])', () => {
    const [dAddr, dCodes] = [5n, 8n].map((slot) => BigInt(keccak256(word(slot))));
    const [a, b] = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222'];
    // uint24 i holds i + 1; bytes3 i holds 0xc0de00 + i: ten to a slot, the 2 bytes left over unused.
    const packed = (values: bigint[]) => values.reduce((acc, v, i) => acc | (v << BigInt(24 * i)), 0n);
    const ticks = Array.from({ length: 12 }, (_, i) => BigInt(i + 1));
    const codes = Array.from({ length: 11 }, (_, i) => 0xc0de00n + BigInt(i));
    const words = new Map([
      [5n, [2n]],
      [dAddr, [W(a)]],
      [dAddr + 1n, [W(b)]],
      [6n, [packed(ticks.slice(0, 10))]],
      [7n, [packed(ticks.slice(10))]],
      [8n, [11n]],
      [dCodes, [packed(codes.slice(0, 10))]],
      [dCodes + 1n, [packed(codes.slice(10))]],
    ]);
    const { nodes } = walkOnce(
      [item('holders', 5, 0, 't_array(t_address)dyn_storage'), item('ticks', 6, 0, 't_array(t_uint24)12_storage'), item('codes', 8, 0, 't_array(t_bytes3)dyn_storage')],
      words,
    );
    const hex = (n: bigint) => `0x${n.toString(16)}`;
    const elements = (i: number) => leaves(nodes[i], 'v').flatMap((l) => (l.path.endsWith('.length') ? [] : [[l.slot, l.values[0]]]));
    assert.deepEqual([0, 1, 2].map(elements), [
      [a, b].map((x, i) => [hex(dAddr + BigInt(i)), getAddress(x)]),
      ticks.map((t, i) => [i < 10 ? '0x6' : '0x7', String(t)]),
      codes.map((c, i) => [hex(i < 10 ? dCodes : dCodes + 1n), hex(c)]),
    ]);
  });

  test('an array of packed structs: each element two slots, members at their offsets', () => {
    const base = BigInt(keccak256(word(4n)));
    const who = '0x1111111111111111111111111111111111111111';
    const words = new Map([
      [4n, [2n]],
      [base, [(1n << 192n) | (77n << 128n) | 1000n]],
      [base + 1n, [W(who)]],
      [base + 3n, [W(who)]],
    ]);
    const { nodes } = walkOnce([item('positions', 4, 0, 't_array(t_struct(Pos)21_storage)dyn_storage')], words);
    const rows = leaves(nodes[0], 'positions').map((l) => [l.path, l.slot, l.values[0]]);
    assert.deepEqual(rows, [
      ['positions.length', '0x4', '2'],
      ['positions[0].amount', `0x${base.toString(16)}`, '1000'],
      ['positions[0].since', `0x${base.toString(16)}`, '77'],
      ['positions[0].open', `0x${base.toString(16)}`, true],
      ['positions[0].who', `0x${(base + 1n).toString(16)}`, getAddress(who)],
      ['positions[1].amount', `0x${(base + 2n).toString(16)}`, '0'],
      ['positions[1].since', `0x${(base + 2n).toString(16)}`, '0'],
      ['positions[1].open', `0x${(base + 2n).toString(16)}`, false],
      ['positions[1].who', `0x${(base + 3n).toString(16)}`, getAddress(who)],
    ]);
  });

  test('an array longer than the bound: the first elements, and a warning', () => {
    const { nodes, walk } = walkOnce([item('dyn', 1, 0, 't_array(t_uint32)dyn_storage')], new Map([[1n, [1000n]]]), [], [], { maxElements: 10 });
    assert.equal(nodes[0].kind === 'array' && nodes[0].elements.length, 10);
    assert.deepEqual([...walk.warnings], ['dyn: 1000 elements, the first 10 read']);
    // A length past 2^53 is named exactly, not as Number.MAX_SAFE_INTEGER.
    const huge = walkOnce([item('dyn', 1, 0, 't_array(t_uint32)dyn_storage')], new Map([[1n, [1n << 64n]]]), [], [], { maxElements: 10 });
    assert.deepEqual([...huge.walk.warnings], ['dyn: 18446744073709551616 elements, the first 10 read']);
    assert.deepEqual(leaves(huge.nodes[0], 'dyn')[0], { path: 'dyn.length', type: 'uint256', slot: '0x1', values: ['18446744073709551616'] });
  });
});

describe('mappings', () => {
  const alice = '0x00000000000000000000000000000000000a11ce';
  const bob = '0x0000000000000000000000000000000000000b0b';

  test('entries where the value is non-zero, for candidate words of the key type; keys as text', () => {
    const words = new Map([
      [mapSlot(abiWord('address', alice), 5n), [100n]],
      [mapSlot(abiWord('int8', -1), 6n), [1n]],
      [mapSlot(abiWord('bytes4', '0x12345678'), 7n), [99n]],
      [mapSlot(`0x${Buffer.from('alice').toString('hex')}`, 8n), [5n]],
    ]);
    const candidates = [W(alice), W(bob), W(`0x${'f'.repeat(64)}`), W(`0x12345678${'0'.repeat(56)}`), W(`0x${Buffer.from('alice').toString('hex').padEnd(64, '0')}`)];
    const { nodes } = walkOnce(
      [
        item('balances', 5, 0, 't_mapping(t_address,t_uint256)'),
        item('byInt', 6, 0, 't_mapping(t_int8,t_bool)'),
        item('bySel', 7, 0, 't_mapping(t_bytes4,t_uint256)'),
        item('byName', 8, 0, 't_mapping(t_string_memory_ptr,t_uint256)'),
      ],
      words,
      candidates,
    );
    const entries = nodes.map((n) => (n.kind === 'mapping' ? n.entries.map((e) => [e.key, e.node.kind === 'value' ? e.node.values[0] : undefined]) : []));
    assert.deepEqual(entries, [[[getAddress(alice), '100']], [['-1', true]], [['0x12345678', '99']], [['alice', '5']]]);
  });

  test('a nested mapping: every pair of candidates tried; the bound cuts with a warning that says so', () => {
    const inner = mapSlot(abiWord('address', alice), 9n);
    const words = new Map([[mapSlot(abiWord('address', bob), inner), [7n]]]);
    const { nodes, walk } = walkOnce([item('allowed', 9, 0, 't_mapping(t_address,t_mapping(t_address,t_uint256))')], words, [W(alice), W(bob)]);
    const [allowed] = nodes;
    assert.equal(allowed.kind, 'mapping');
    assert.deepEqual(
      leaves(allowed, 'allowed').map((l) => [l.path, l.values[0]]),
      [[`allowed[${getAddress(alice)}][${getAddress(bob)}]`, '7']],
    );
    assert.equal(walk.warnings.size, 0);
    // The cut's advice is in the front end's words: the CLI's flag, the editor's command, or none.
    const cut = (hints?: KnobHints) => [
      ...walkOnce([item('allowed', 9, 0, 't_mapping(t_address,t_mapping(t_address,t_uint256))')], words, [W(alice), W(bob)], [], { maxKeyTries: 3 }, 1, hints).walk.warnings,
    ];
    assert.deepEqual(cut(CLI_HINTS), ['allowed: search stopped at 3 combinations of candidate keys; name the keys wanted with --keys']);
    assert.deepEqual(cut(KNOB_HINTS), ['allowed: search stopped at 3 combinations of candidate keys; name the keys wanted with "Add Key…" on the mapping in the Contract Storage view']);
    assert.deepEqual(cut(), ['allowed: search stopped at 3 combinations of candidate keys']);
  });

  /** Words and groups of a token's logs: `holders` Transfers from the owner, then Approvals. */
  const tokenLogs = (holders: string[], approvals: [string, string][], owner: string) => {
    const sig = W(keccak256(toUtf8Bytes('Transfer(address,address,uint256)')));
    const approval = W(keccak256(toUtf8Bytes('Approval(address,address,uint256)')));
    const groups = [...holders.map((h) => [sig, W(owner), W(h), 1n]), ...approvals.map(([o, s]) => [approval, W(o), W(s), 5n])];
    return { words: [...new Set(groups.flat())], groups };
  };
  const holder = (i: number) => getAddress(`0x${(0x1000 + i).toString(16).padStart(40, '0')}`);
  const ALLOWED = 't_mapping(t_address,t_mapping(t_address,t_uint256))';

  test('a nested mapping: the pairs one log names are tried first, so the bound that stops the wide search still finds them', () => {
    const owner = holder(0);
    const holders = Array.from({ length: 60 }, (_, i) => holder(i + 1));
    // Approvals between holders late in key order: every pair of 62 keys is 3,844 combinations, far above the bound of 500.
    const approvals: [string, string][] = [
      [holders[58], holders[59]],
      [holders[59], owner],
    ];
    const { words: keyWords, groups } = tokenLogs(holders, approvals, owner);
    const at = (o: string, sp: string) => mapSlot(abiWord('address', sp), mapSlot(abiWord('address', o), 9n));
    const words = new Map([
      [at(...approvals[0]), [5n]],
      [at(...approvals[1]), [7n]],
    ]);
    const walk = new Walk({
      types: TYPES,
      states: 1,
      words: (s) => words.get(s) ?? [0n],
      keys: (id) => keysFor(TYPES[id], keyWords, []),
      keyGroups: groups,
      limits: { ...DEFAULT_LIMITS, maxKeyTries: 500 },
      hints: CLI_HINTS,
      hashes: new Map(),
    });
    const allowed = walk.variable('allowed', ALLOWED, 9n, 0);
    assert.deepEqual(
      leaves(allowed, 'allowed').map((l) => [l.path, l.values[0]]),
      [
        [`allowed[${holders[58]}][${holders[59]}]`, '5'],
        [`allowed[${holders[59]}][${owner}]`, '7'],
      ],
    );
    assert.equal(allowed.kind === 'mapping' && allowed.searchStopped, 500, 'the mapping says its search stopped');
    assert.deepEqual([...walk.warnings], ['allowed: search stopped at 500 combinations of candidate keys; name the keys wanted with --keys']);

    // Without the logs' groups the same bound finds neither: the wide search runs out first.
    const wide = new Walk({
      types: TYPES,
      states: 1,
      words: (s) => words.get(s) ?? [0n],
      keys: (id) => keysFor(TYPES[id], keyWords, []),
      limits: { ...DEFAULT_LIMITS, maxKeyTries: 500 },
      hashes: new Map(),
    });
    const missed = wide.variable('allowed', ALLOWED, 9n, 0);
    assert.equal(missed.kind === 'mapping' && missed.entries.length, 0);
    assert.equal(missed.kind === 'mapping' && missed.searchStopped, 500);
  });

  test('a nested mapping: a key the user gives is paired with every candidate before the wide search', () => {
    const owner = holder(0);
    const holders = Array.from({ length: 60 }, (_, i) => holder(i + 1));
    const { words: keyWords } = tokenLogs(holders, [], owner);
    // Approved without an Approval event (a permit, say): found only once the user names the spender.
    const spender = getAddress(`0x${'5'.repeat(40)}`);
    const slot = mapSlot(abiWord('address', spender), mapSlot(abiWord('address', holders[59]), 9n));
    const walk = new Walk({
      types: TYPES,
      states: 1,
      words: (s) => (s === slot ? [3n] : [0n]),
      keys: (id) => keysFor(TYPES[id], keyWords, [spender]),
      userKeys: [spender],
      limits: { ...DEFAULT_LIMITS, maxKeyTries: 200 },
      hashes: new Map(),
    });
    const allowed = walk.variable('allowed', ALLOWED, 9n, 0);
    assert.deepEqual(
      leaves(allowed, 'allowed').map((l) => [l.path, l.values[0]]),
      [[`allowed[${holders[59]}][${spender}]`, '3']],
    );
  });

  test('a search that tries every combination within the bound is not marked stopped', () => {
    const { nodes, walk } = walkOnce([item('allowed', 9, 0, ALLOWED)], new Map(), [W(holder(1)), W(holder(2))], [], { maxKeyTries: 4 });
    assert.equal(nodes[0].kind === 'mapping' && nodes[0].searchStopped, undefined);
    assert.equal(walk.warnings.size, 0);
  });

  test('a layout that loops (a struct inside itself) or names a type it does not describe is refused, naming the variable', () => {
    const looping = { ...TYPES, 't_struct(L)1_storage': T('struct L', 32, { members: [item('self', 0, 0, 't_struct(L)1_storage')] }) };
    const walk = new Walk({ types: looping, states: 1, words: () => [0n], keys: () => [], limits: DEFAULT_LIMITS, hashes: new Map() });
    assert.throws(
      () => walk.variable('l', 't_struct(L)1_storage', 0n, 0),
      (err: unknown) => err instanceof StorageDecodeError && /^l\.self\.self\.self.*…: the layout nests types more than 64 deep$/.test(err.message) && err.message.length < 200,
    );
    assert.throws(() => walk.variable('x', 't_nothing', 0n, 0), /x: the layout names type t_nothing but does not describe it/);
  });

  test('a mapping without entries is one leaf {} so a table still shows it', () => {
    const { nodes } = walkOnce([item('balances', 5, 0, 't_mapping(t_address,t_uint256)')], new Map());
    assert.deepEqual(leaves(nodes[0], 'balances'), [{ path: 'balances', type: 'mapping(address => uint256)', slot: '0x5', values: [{}] }]);
  });
});

/** An in-memory node: storage per block number, logs, and a hash per block that a test may change. */
/** A node holding `storage` at each block; the contract has code from block `deployedAt` on. */
function memoryNode(storage: Map<number, Map<bigint, bigint>>, logs: { topics: string[]; data: string; blockNumber: string }[] = [], deployedAt = 0) {
  const hashes = new Map([...storage.keys()].map((n) => [n, word(BigInt(n) + 0xabcn)]));
  const batches: RpcCall[][] = [];
  const answer = (c: RpcCall): unknown => {
    const p = c.params as unknown[];
    switch (c.method) {
      case 'eth_getBlockByNumber': {
        const n = p[0] === 'latest' ? Math.max(...storage.keys()) : Number(BigInt(p[0] as string));
        return hashes.has(n) ? { number: `0x${n.toString(16)}`, hash: hashes.get(n) } : null;
      }
      case 'eth_getCode':
        return Number(BigInt(p[1] as string)) >= deployedAt ? '0x6000' : '0x';
      case 'eth_getStorageAt':
        return word(storage.get(Number(BigInt(p[2] as string)))?.get(BigInt(p[1] as string)) ?? 0n);
      case 'eth_getLogs':
        return logs;
      case 'eth_getBlockTransactionCountByNumber':
        return '0x1';
      default:
        throw new RpcFailure('rpc', `no ${c.method}`, { code: -32601 });
    }
  };
  const rpc: StorageRpc = {
    async call<T>(method: string, params?: unknown) {
      batches.push([{ method, params: params as unknown[] }]);
      return answer({ method, params: params as unknown[] }) as T;
    },
    async batch(calls) {
      batches.push([...calls]);
      return calls.map((c) => {
        try {
          return { result: answer(c), response: { jsonrpc: '2.0' as const, id: 1 } };
        } catch (err) {
          return { error: err as RpcFailure };
        }
      });
    },
  };
  return { rpc, batches, hashes, storage };
}

describe('rounds of reads against a node', () => {
  const layout = {
    storage: [
      { label: 'total', slot: '0', offset: 0, type: 'uint256', typeId: 't_uint256', numberOfBytes: 32 },
      { label: 'name', slot: '1', offset: 0, type: 'string', typeId: 't_string_storage', numberOfBytes: 32 },
      { label: 'list', slot: '2', offset: 0, type: 'uint32[]', typeId: 't_array(t_uint32)dyn_storage', numberOfBytes: 32 },
      { label: 'balances', slot: '3', offset: 0, type: 'mapping(address => uint256)', typeId: 't_mapping(t_address,t_uint256)', numberOfBytes: 32 },
    ],
    types: TYPES,
  };
  const who = '0x00000000000000000000000000000000000a11ce';
  const state = (total: bigint, list: bigint[], balance: bigint) => {
    const m = new Map<bigint, bigint>([
      [0n, total],
      [1n, W('0x68656c6c6f00000000000000000000000000000000000000000000000000000a')],
      [2n, BigInt(list.length)],
      [BigInt(keccak256(word(2n))), list.reduce((acc, v, i) => acc | (v << BigInt(32 * i)), 0n)],
    ]);
    if (balance) m.set(mapSlot(abiWord('address', who), 3n), balance);
    return m;
  };
  const logs = [{ topics: [word(1n), word(W(who))], data: '0x', blockNumber: '0x1' }];

  test('100,000 notes from a hostile layout file: each warned once, in linear time', async () => {
    const node = memoryNode(new Map([[5, state(42n, [], 0n)]]), logs);
    const notes = Array.from({ length: 100_000 }, (_, i) => `erc7201:n${i} (struct A.S${i}) is not decoded: type uint7 has no storage layout Chaindeck knows`);
    const warned: string[] = [];
    const started = Date.now();
    await readStorage(node.rpc, { ...layout, notes: [...notes, notes[0]] }, ['latest'], { address: '0x5fbdb2315678afecb367f032d93f642f64180aa3', onWarning: (w) => warned.push(w) });
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    assert.deepEqual(warned, notes);
  });

  test('a decode: the block lookup, then the value types (with the logs beside), then the array and the mapping entries', async () => {
    const node = memoryNode(new Map([[5, state(42n, [7n, 8n], 100n)]]), logs);
    const reading = await readStorage(node.rpc, layout, ['latest'], { address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' });
    assert.deepEqual(
      decodedJson(reading).map((v) => v.value),
      ['42', 'hello', ['7', '8'], { [getAddress(who)]: '100' }],
    );
    assert.equal(reading.blocks[0].number, 5);
    assert.equal(reading.stats.roundTrips, 3, 'lookup, value types, then the second batch');
    const storageBatches = node.batches.filter((b) => b.some((c) => c.method === 'eth_getStorageAt'));
    assert.equal(storageBatches.length, 2);
    assert.ok(
      storageBatches[0].every((c) => c.method !== 'eth_getStorageAt' || (c.params as string[])[2] === '0x5'),
      'pinned by number',
    );
  });

  test('a diff reads both blocks in the same batches: zeros shown, null for an element gone', async () => {
    const node = memoryNode(
      new Map([
        [5, state(42n, [7n, 8n], 0n)],
        [6, state(43n, [7n], 100n)],
      ]),
      logs,
    );
    const diff = await diffStorage(node.rpc, layout, '5', '6', { address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' });
    assert.equal(diff.stats.roundTrips, 2, 'by number: the lookup and the value types together, then the second batch');
    assert.deepEqual(diff.changes, [
      { path: 'total', slot: '0x0', before: '42', after: '43' },
      { path: 'list.length', slot: '0x2', before: '2', after: '1' },
      { path: 'list[1]', slot: `0x${BigInt(keccak256(word(2n))).toString(16)}`, before: '8', after: null },
      { path: `balances[${getAddress(who)}]`, slot: `0x${mapSlot(abiWord('address', who), 3n).toString(16)}`, before: '0', after: '100' },
    ]);
  });

  test('a diff from before the deployment (code at the TO block only): every variable changes from zero, not "no code"', async () => {
    const node = memoryNode(
      new Map([
        [4, new Map<bigint, bigint>()],
        [5, state(42n, [7n], 0n)],
      ]),
      logs,
      5,
    );
    const diff = await diffStorage(node.rpc, layout, '4', '5', { address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' });
    assert.deepEqual(diff.changes, [
      { path: 'total', slot: '0x0', before: '0', after: '42' },
      { path: 'name', slot: '0x1', before: '', after: 'hello' },
      { path: 'list.length', slot: '0x2', before: '0', after: '1' },
      { path: 'list[0]', slot: `0x${BigInt(keccak256(word(2n))).toString(16)}`, before: null, after: '7' },
    ]);
    // At neither block: no contract to decode.
    await assert.rejects(
      diffStorage(memoryNode(node.storage, logs, 9).rpc, layout, '4', '5', { address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' }),
      (err: unknown) => err instanceof StorageDecodeError && err.reason === 'no-code',
    );
  });

  test('a block that cannot be had is named as the user wrote it (not found, or the node refusing it)', async () => {
    const node = memoryNode(new Map([[5, state(42n, [7n], 0n)]]), logs);
    const address = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
    const hash = `0x${'AB'.repeat(32)}`;
    for (const [blocks, says] of [
      [['0xF423F'], 'Failed to get block: block 0xF423F not found'],
      [['5', hash], `Failed to get block: block ${hash}: no eth_getBlockByHash`],
    ] as const) {
      await assert.rejects(readStorage(node.rpc, layout, blocks, { address }), (err: unknown) => err instanceof StorageRangeError && err.reason === 'block' && err.message === says);
    }
  });

  test('a block whose hash changes under the reads fails, saying so', async () => {
    const node = memoryNode(new Map([[5, state(42n, [7n], 0n)]]), logs);
    const original = node.rpc.batch.bind(node.rpc);
    let n = 0;
    node.rpc.batch = async (calls, options) => {
      if (n++ === 1) node.hashes.set(5, word(0xdeadn));
      return original(calls, options);
    };
    await assert.rejects(
      readStorage(node.rpc, layout, ['5'], { address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' }),
      (err: unknown) => err instanceof StorageDecodeError && err.reason === 'reorg' && /block 5 changed/.test(err.message),
    );
  });
});

describe('raw diffs from state-diff tracing', () => {
  const address = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
  /** Each block holds one transaction: the count asked beside each trace. */
  const isCount = (c: RpcCall) => c.method === 'eth_getBlockTransactionCountByNumber';
  const oneTx = { result: '0x1', response: { jsonrpc: '2.0' as const, id: 1 } };
  const states = () =>
    new Map([
      [5, new Map([[1n, 10n]])],
      [6, new Map([[1n, 11n]])],
      [
        7,
        new Map([
          [1n, 10n],
          [2n, 3n],
        ]),
      ],
    ]);

  test('trace_replayBlockTransactions where the prestateTracer is missing; a slot that changed back is left out', async () => {
    const node = memoryNode(states());
    const plain = node.rpc.batch.bind(node.rpc);
    const seen: string[] = [];
    node.rpc.batch = async (calls, options) => {
      const traced = calls.filter((c) => c.method.startsWith('trace_') || c.method.startsWith('debug_'));
      if (!traced.length) return plain(calls, options);
      seen.push(...traced.map((c) => c.method));
      return calls.map((c) => {
        if (isCount(c)) return oneTx;
        const n = Number(BigInt((c.params as string[])[0]));
        if (c.method === 'debug_traceBlockByNumber')
          return { error: new RpcFailure('rpc', 'JSON-RPC error -32601: the method debug_traceBlockByNumber does not exist/is not available', { code: -32601 }) };
        const storage = n === 6 ? { [word(1n)]: { '*': { from: word(10n), to: word(11n) } } } : { [word(1n)]: { '*': {} }, [word(2n)]: { '+': word(3n) } };
        return { result: [{ stateDiff: { [address]: { storage } } }], response: { jsonrpc: '2.0' as const, id: 1 } };
      });
    };
    const { rawStorageDiff } = await import('../../../../../src/core/storage/decode/rawDiff');
    const diff = await rawStorageDiff(node.rpc, '5', '7', { address });
    assert.equal(diff.method, 'trace_replayBlockTransactions');
    assert.deepEqual(diff.changes, [{ slot: word(2n), before: word(0n), after: word(3n) }]);
    assert.deepEqual(seen, ['debug_traceBlockByNumber', 'debug_traceBlockByNumber', 'trace_replayBlockTransactions', 'trace_replayBlockTransactions']);
  });

  test('a prestateTracer that ignores diffMode (no pre and post) is no diff: the other way is tried, and without it an error, never "nothing changed"', async () => {
    const prestate = (traced: readonly RpcCall[]) =>
      traced.map((c) =>
        isCount(c)
          ? oneTx
          : c.method === 'debug_traceBlockByNumber'
            ? { result: [{ txHash: word(9n), result: { [address]: { balance: '0x0', nonce: 1, storage: { [word(1n)]: word(10n) } } } }], response: { jsonrpc: '2.0' as const, id: 1 } }
            : { error: new RpcFailure('rpc', `JSON-RPC error -32601: no ${c.method}`, { code: -32601 }) },
      );
    const node = memoryNode(states());
    const plain = node.rpc.batch.bind(node.rpc);
    node.rpc.batch = async (calls, options) => (calls.some((c) => c.method.startsWith('trace_') || c.method.startsWith('debug_')) ? prestate(calls) : plain(calls, options));
    const { rawStorageDiff } = await import('../../../../../src/core/storage/decode/rawDiff');
    await assert.rejects(
      rawStorageDiff(node.rpc, '5', '7', { address }),
      (err: unknown) =>
        err instanceof StorageDecodeError &&
        err.reason === 'trace' &&
        err.message.startsWith(
          'the node cannot trace state diffs (debug_traceBlockByNumber: block 6 answered traces that are not state diffs (no pre and post: the prestateTracer ignored diffMode); trace_replayBlockTransactions: JSON-RPC error -32601: no trace_replayBlockTransactions), which a diff without --layout needs',
        ),
    );
    // With trace_replayBlockTransactions beside it, that is used.
    node.rpc.batch = async (calls, options) => {
      if (!calls.some((c) => c.method.startsWith('trace_') || c.method.startsWith('debug_'))) return plain(calls, options);
      if (calls[0].method === 'debug_traceBlockByNumber') return prestate(calls);
      return calls.map((c) =>
        isCount(c) ? oneTx : { result: [{ stateDiff: { [address]: { storage: { [word(2n)]: { '+': word(3n) } } } } }], response: { jsonrpc: '2.0' as const, id: 1 } },
      );
    };
    const diff = await rawStorageDiff(node.rpc, '5', '7', { address });
    assert.equal(diff.method, 'trace_replayBlockTransactions');
    assert.deepEqual(diff.changes, [{ slot: word(2n), before: word(0n), after: word(3n) }]);
  });

  test("a transaction the node could not trace (geth's {txHash, error}) is that error, on one line: not a tracer that ignored diffMode", async () => {
    const node = memoryNode(states());
    const plain = node.rpc.batch.bind(node.rpc);
    node.rpc.batch = async (calls, options) => {
      if (!calls.some((c) => c.method.startsWith('trace_') || c.method.startsWith('debug_'))) return plain(calls, options);
      return calls.map((c) => (isCount(c) ? oneTx : { result: [{ txHash: word(9n), error: 'execution timeout\n::error::forged' }], response: { jsonrpc: '2.0' as const, id: 1 } }));
    };
    const { rawStorageDiff } = await import('../../../../../src/core/storage/decode/rawDiff');
    await assert.rejects(rawStorageDiff(node.rpc, '5', '7', { address }), (err: unknown) => {
      assert.ok(err instanceof StorageDecodeError);
      assert.equal(err.reason, 'read');
      assert.equal(err.message, `debug_traceBlockByNumber of block 6 failed: transaction ${word(9n)}: execution timeout\\n::error::forged`);
      return true;
    });
  });

  test('a trace that leaves out transactions (an empty list for a block with one) is no diff: an error naming the block and the counts, either tracer', async () => {
    const { rawStorageDiff } = await import('../../../../../src/core/storage/decode/rawDiff');
    for (const tracer of ['debug_traceBlockByNumber', 'trace_replayBlockTransactions']) {
      const node = memoryNode(states());
      const plain = node.rpc.batch.bind(node.rpc);
      node.rpc.batch = async (calls, options) => {
        if (!calls.some((c) => c.method.startsWith('trace_') || c.method.startsWith('debug_'))) return plain(calls, options);
        return calls.map((c) =>
          isCount(c)
            ? oneTx
            : c.method === tracer
              ? { result: [], response: { jsonrpc: '2.0' as const, id: 1 } }
              : { error: new RpcFailure('rpc', `JSON-RPC error -32601: no ${c.method}`, { code: -32601 }) },
        );
      };
      await assert.rejects(rawStorageDiff(node.rpc, '5', '7', { address }), (err: unknown) => {
        assert.ok(err instanceof StorageDecodeError);
        assert.equal(err.reason, 'read');
        assert.equal(err.message, `the node traced 0 of 1 transactions in block 6 (${tracer}), so its answer is not a diff`);
        return true;
      });
    }
  });

  test('a node with neither tracer: the error says so and what to do', async () => {
    const node = memoryNode(states());
    const { rawStorageDiff } = await import('../../../../../src/core/storage/decode/rawDiff');
    await assert.rejects(
      rawStorageDiff(node.rpc, '5', '7', { address }),
      (err: unknown) => err instanceof StorageDecodeError && err.reason === 'trace' && /the node cannot trace state diffs/.test(err.message) && /give --layout FILE/.test(err.message),
    );
  });
});
