/**
 * One layout file as the user names it (--layout FILE): which of the four kinds it is, the
 * contract chosen by NAME or PATH:NAME (Hardhat 3's project/ prefix included), and a one-line
 * message naming the file for each way it cannot give a layout. Plus the CLI's own checks of
 * storage-decode and storage-diff, in-process: usage errors (exit 2) before anything is read or
 * sent, and a table's columns.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { keysFlag } from '../../../src/cli/storageDecode';
import { mkdirSync } from 'node:fs';
import { layoutFileKind, LayoutFileError, loadProjectLayouts, readLayoutFile, selectLayout, type SolcStorageLayout } from '../../../src/core/storage/layout';
import { runMain } from '../../support/cli';

const LAYOUT: SolcStorageLayout = {
  storage: [{ label: 'x', offset: 0, slot: '0', type: 't_uint256' }],
  types: { t_uint256: { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' } },
};
const EMPTY: SolcStorageLayout = { storage: [], types: null };
const contracts = { 'contracts/A.sol': { A: { storageLayout: LAYOUT }, IA: { storageLayout: EMPTY } }, 'contracts/B.sol': { B: { storageLayout: LAYOUT } } };

let dir: string;
const file = (name: string, content: unknown) => {
  const f = path.join(dir, name);
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
};
const failure = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    assert.ok(err instanceof LayoutFileError, String(err));
    assert.ok(!err.message.includes('\n'), 'one line');
    return err;
  }
  assert.fail('no error');
};

before(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-layoutfile-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the kind of a layout file', () => {
  test('solc output, Hardhat 2 and 3 build-info, Foundry artifact; a Hardhat 3 input file; anything else', () => {
    assert.equal(layoutFileKind({ contracts, sources: {} }), 'solc-output');
    assert.equal(layoutFileKind({ _format: 'hh-sol-build-info-1', input: {}, output: { contracts } }), 'hardhat-build-info');
    assert.equal(layoutFileKind({ _format: 'hh3-sol-build-info-output-1', id: 'x', output: { contracts } }), 'hardhat3-output');
    assert.equal(layoutFileKind({ _format: 'hh3-sol-build-info-1', id: 'x', input: {} }), 'hardhat3-input');
    assert.equal(layoutFileKind({ abi: [], bytecode: { object: '0x' }, storageLayout: LAYOUT }), 'foundry-artifact');
    assert.equal(layoutFileKind([1, 2]), undefined);
    assert.equal(layoutFileKind({ name: 'package' }), undefined);
  });

  test('each kind read from disk gives its layouts', () => {
    assert.deepEqual(
      readLayoutFile(file('solc.json', { contracts })).layouts.map((l) => l.contractName),
      ['A', 'IA', 'B'],
    );
    const hh3 = readLayoutFile(file('x.output.json', { _format: 'hh3-sol-build-info-output-1', output: { contracts: { 'project/contracts/A.sol': contracts['contracts/A.sol'] } } }));
    assert.equal(hh3.kind, 'hardhat3-output');
    assert.equal(readLayoutFile(file('A.json', { abi: [], storageLayout: LAYOUT, metadata: { settings: { compilationTarget: { 'src/A.sol': 'A' } } } })).layouts[0].contractName, 'A');
  });
});

test('the workspace: a Hardhat 3 project gives its layouts from <id>.output.json, its input file none', () => {
  const root = path.join(dir, 'hh3');
  const buildInfo = path.join(root, 'artifacts', 'build-info');
  mkdirSync(buildInfo, { recursive: true });
  writeFileSync(path.join(buildInfo, 'solc-0_8_28-abc.json'), JSON.stringify({ _format: 'hh3-sol-build-info-1', id: 'solc-0_8_28-abc', input: { sources: {} } }));
  writeFileSync(
    path.join(buildInfo, 'solc-0_8_28-abc.output.json'),
    JSON.stringify({ _format: 'hh3-sol-build-info-output-1', id: 'solc-0_8_28-abc', output: { contracts: { 'project/contracts/B.sol': contracts['contracts/B.sol'] } } }),
  );
  assert.deepEqual(
    loadProjectLayouts(root).map((l) => `${l.source}:${l.contractName}`),
    ['project/contracts/B.sol:B'],
  );
});

describe('bad files: one line naming the file', () => {
  test('missing, not JSON, not a compiler output, a Hardhat 3 input, no layout (saying how to ask for one)', () => {
    const missing = path.join(dir, 'nope.json');
    assert.equal(failure(() => readLayoutFile(missing)).reason, 'unreadable');
    assert.match(failure(() => readLayoutFile(missing)).message, new RegExp(missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.match(failure(() => readLayoutFile(file('bad.json', '{"a": '))).message, /bad\.json is not JSON/);
    assert.match(failure(() => readLayoutFile(file('pkg.json', { name: 'x' }))).message, /pkg\.json is not a compiler output/);
    const input = file('solc-0_8_28-abc.json', { _format: 'hh3-sol-build-info-1', input: {} });
    assert.match(failure(() => readLayoutFile(input)).message, /solc-0_8_28-abc\.output\.json/);
    const none = failure(() => readLayoutFile(file('nolayout.json', { contracts: { 'a.sol': { A: { abi: [] } } } })));
    assert.equal(none.reason, 'no-layout');
    assert.match(none.message, /nolayout\.json has no storage layout: none of its contracts \(a\.sol:A\)/);
    assert.match(none.message, /outputSelection/);
    assert.match(none.message, /--extra-output storageLayout/);
    assert.match(failure(() => readLayoutFile(file('art.json', { abi: [], bytecode: { object: '0x' } }))).message, /art\.json has no storage layout/);
  });
});

describe('a malformed layout: one line naming the file, the contract and the culprit, before anything is read', () => {
  const withLayout = (name: string, edit: (l: { storage: unknown[]; types: Record<string, unknown> }) => void) => {
    const layout = JSON.parse(JSON.stringify(LAYOUT)) as { storage: unknown[]; types: Record<string, unknown> };
    edit(layout);
    return file(name, { contracts: { 'contracts/A.sol': { A: { storageLayout: layout } } } });
  };
  const cases: [string, (l: { storage: unknown[]; types: Record<string, unknown> }) => void, RegExp][] = [
    ['slot-text', (l) => l.storage.push({ label: 'bad', offset: 0, slot: 'abc', type: 't_uint256' }), /storage\[1\] \(bad\): slot "abc" is not a decimal number below 2\^256/],
    ['slot-negative', (l) => l.storage.push({ label: 'neg', offset: 0, slot: '-5', type: 't_uint256' }), /storage\[1\] \(neg\): slot "-5"/],
    ['slot-2^256', (l) => l.storage.push({ label: 'far', offset: 0, slot: (1n << 256n).toString(), type: 't_uint256' }), /storage\[1\] \(far\): slot "1157920892/],
    ['offset-large', (l) => l.storage.push({ label: 'off', offset: 1e9, slot: '1', type: 't_uint256' }), /storage\[1\] \(off\): offset 1000000000 is not a byte offset from 0 to 31/],
    ['item-null', (l) => l.storage.push(null), /storage\[1\] is null, not an entry/],
    ['size-exponent', (l) => ((l.types.t_uint256 as { numberOfBytes: string }).numberOfBytes = '1e400'), /type t_uint256: numberOfBytes "1e400" is not a positive decimal number/],
    ['size-zero', (l) => ((l.types.t_uint256 as { numberOfBytes: string }).numberOfBytes = '0'), /type t_uint256: numberOfBytes "0"/],
    ['encoding', (l) => ((l.types.t_uint256 as { encoding: string }).encoding = 'weird'), /type t_uint256: encoding "weird" is none of inplace, mapping, dynamic_array, bytes/],
    [
      'member',
      (l) => (l.types['t_struct(S)1_storage'] = { encoding: 'inplace', label: 'struct S', numberOfBytes: '32', members: [{ label: 'm', offset: 40, slot: '0', type: 't_uint256' }] }),
      /type t_struct\(S\)1_storage member 0 \(m\): offset 40/,
    ],
  ];
  for (const [name, edit, says] of cases) {
    test(name, () => {
      const f = withLayout(`${name}.json`, edit);
      const err = failure(() => readLayoutFile(f));
      assert.equal(err.reason, 'malformed');
      assert.ok(err.message.startsWith(`${f}: the storage layout of contracts/A.sol:A is malformed: `), err.message);
      assert.match(err.message, says);
    });
  }

  test('a slot nested deeper than the stack goes: named by its kind, not a stack overflow', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const f = file('deep.json', `{"contracts": {"a.sol": {"A": {"storageLayout": {"storage": [{"label": "deep", "offset": 0, "type": "t", "slot": ${deep}}], "types": {}}}}}}`);
    const err = failure(() => readLayoutFile(f));
    assert.equal(err.reason, 'malformed');
    assert.match(err.message, /storage\[0\] \(deep\): slot a list is not a decimal number/);
  });

  test('the workspace leaves a malformed layout out instead of failing', () => {
    const root = path.join(dir, 'malformed-project');
    mkdirSync(path.join(root, 'out', 'A.sol'), { recursive: true });
    const bad = JSON.parse(JSON.stringify(LAYOUT)) as { storage: unknown[] };
    bad.storage.push({ label: 'bad', offset: 0, slot: 'abc', type: 't_uint256' });
    writeFileSync(path.join(root, 'out', 'A.sol', 'A.json'), JSON.stringify({ abi: [], storageLayout: bad }));
    writeFileSync(path.join(root, 'out', 'A.sol', 'B.json'), JSON.stringify({ abi: [], storageLayout: LAYOUT }));
    assert.deepEqual(
      loadProjectLayouts(root).map((l) => l.contractName),
      ['B'],
    );
  });
});

describe('choosing the contract', () => {
  const layouts = () => readLayoutFile(file('choose.json', { output: { contracts: { ...contracts, 'project/contracts/C.sol': { A: { storageLayout: LAYOUT } } } } })).layouts;

  test('by NAME, by PATH:NAME (a tail of the source, or without project/)', () => {
    assert.equal(selectLayout(layouts(), 'B', 'f').source, 'contracts/B.sol');
    assert.equal(selectLayout(layouts(), 'contracts/C.sol:A', 'f').source, 'project/contracts/C.sol');
    assert.equal(selectLayout(layouts(), 'A.sol:A', 'f').source, 'contracts/A.sol');
  });

  test('a name in several sources, or several contracts and no name: ambiguous (exit 2), listing them; interfaces left out', () => {
    const twice = failure(() => selectLayout(layouts(), 'A', 'f'));
    assert.equal(twice.reason, 'ambiguous');
    assert.match(twice.message, /contracts\/A\.sol:A, project\/contracts\/C\.sol:A/);
    const unnamed = failure(() => selectLayout(layouts(), undefined, 'f'));
    assert.equal(unnamed.reason, 'ambiguous');
    assert.doesNotMatch(unnamed.message, /IA/);
    const onlyOne = readLayoutFile(file('one.json', { contracts: { 'contracts/A.sol': contracts['contracts/A.sol'] } })).layouts;
    assert.equal(selectLayout(onlyOne, undefined, 'f').contractName, 'A', 'the interface does not count');
  });

  test('a name not in the file: listed what is', () => {
    const err = failure(() => selectLayout(layouts(), 'Z', 'f.json'));
    assert.equal(err.reason, 'no-contract');
    assert.equal(err.message, '--contract Z is not in f.json; it holds: contracts/A.sol:A, contracts/A.sol:IA, contracts/B.sol:B, project/contracts/C.sol:A');
  });
});

describe('the CLI of storage-decode and storage-diff, in-process', () => {
  const address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

  test('usage errors: exit 2, nothing on stdout, nothing sent', async () => {
    for (const [argv, says] of [
      [['storage-decode', '--address', address, '--layout', 'x.json'], '--rpc is required'],
      [['storage-decode', '--rpc', 'http://127.0.0.1:1', '--address', address], '--layout is required'],
      [['storage-decode', '--rpc', 'http://127.0.0.1:1', '--layout', 'x.json'], '--address is required'],
      [['storage-decode', '--rpc', 'http://127.0.0.1:1', '--address', address, '--layout', 'x', '--keys', 'a,,b'], "--keys is a comma-separated list of keys without empty ones, not 'a,,b'"],
      [['storage-decode', '--rpc', 'http://127.0.0.1:1', '--address', address, '--layout', 'x', 'extra'], "unexpected argument 'extra'"],
      [['storage-diff', '--rpc', 'http://127.0.0.1:1', '--address', address, '--to', 'latest'], '--from is required'],
      [['storage-diff', '--rpc', 'http://127.0.0.1:1', '--address', address, '--from', '1', '--to', '0xzz'], "--to: Invalid block '0xzz'"],
      [['storage-diff', '--rpc', 'http://127.0.0.1:1', '--address', address, '--from', '1', '--to', '2', '--contract', 'A'], '--contract names a contract of --layout FILE'],
      [['storage-diff', '--rpc', 'http://127.0.0.1:1', '--address', address, '--from', '1', '--to', '2', '--format', 'csv'], "--format is json or table, not 'csv'"],
    ] as const) {
      const run = await runMain([...argv]);
      assert.equal(run.code, 2, `${argv.join(' ')}: ${run.err}`);
      assert.equal(run.out, '');
      assert.ok(run.err.startsWith(`chaindeck ${argv[0]}: ${says}`), run.err);
    }
  });

  test('a layout file that cannot be read fails (exit 1) in one line before the node is called, for storage-diff too', async () => {
    const missing = path.join(dir, 'absent.json');
    for (const command of ['storage-decode', 'storage-diff']) {
      const blocks = command === 'storage-decode' ? [] : ['--from', '1', '--to', '2'];
      const run = await runMain([command, '--rpc', 'http://127.0.0.1:1', '--address', address, '--layout', missing, ...blocks]);
      assert.deepEqual(run, { code: 1, out: '', revealed: '', err: `chaindeck ${command}: ${missing} does not exist\n` });
    }
  });

  test('--keys: at most 1000, each at most 1024 characters; spaces around keys dropped', () => {
    assert.deepEqual(keysFlag(' 0xab , 7'), ['0xab', '7']);
    assert.throws(() => keysFlag(Array.from({ length: 1001 }, (_, i) => String(i)).join(',')), /at most 1000 keys/);
    assert.throws(() => keysFlag('x'.repeat(1025)), /at most 1024 characters/);
  });
});
