/**
 * The single-value rules of values.ts at their edges, on the tutorial subgraph with a few edits,
 * in memory: data source kinds, specVersion/apiVersion spellings, the graph-ts check, addresses,
 * block numbers, features, graft bases, prune and `every`; and the parts of versions.ts those
 * rules and the graph-cli check lean on (compareVersions on both sides, rangeAtLeast's syntax).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareVersions, rangeAtLeast } from '../../../../../src/core/subgraph/rules/versions';
import type { Finding } from '../../../../../src/core/subgraph/types';
import { type Files } from '../../../../fixtures/subgraphs/corpus';
import { only, validateTutorial } from '../../../../support/rules';

type Edit = (files: Files) => void;

/** Replaces `from` by `to` in subgraph.yaml; `from` must occur. */
const m =
  (from: string, to: string): Edit =>
  (files) => {
    const after = files['subgraph.yaml'].replace(from, to);
    assert.notEqual(after, files['subgraph.yaml'], `test edit does not apply: ${from}`);
    files['subgraph.yaml'] = after;
  };
const graphTs =
  (version: string): Edit =>
  (files) =>
    void (files['node_modules/@graphprotocol/graph-ts/package.json'] = JSON.stringify({ name: '@graphprotocol/graph-ts', version }));

function run(...edits: Edit[]): Finding[] {
  return validateTutorial(edits);
}

const withCode = (findings: Finding[], code: string) => findings.filter((f) => f.code === code);

const ADDRESS = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const DEPLOYMENT = 'QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM';

describe('data source kinds', () => {
  test('ethereum and ethereum/contract are known kinds', () => {
    assert.deepEqual(withCode(run(), 'unknown-kind'), []);
    assert.deepEqual(withCode(run(m('  - kind: ethereum', '  - kind: ethereum/contract')), 'unknown-kind'), []);
  });

  test('templates may also be file/ipfs or file/arweave data sources', () => {
    for (const kind of ['file/ipfs', 'file/arweave']) {
      const template = `templates:\n  - kind: ${kind}\n    name: Metadata\n    mapping:\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      file: ./src/mapping.ts\n      handler: handleApproval\n      entities:\n        - ApprovalQuery\n`;
      const findings = run(m('specVersion: 0.0.5', 'specVersion: 0.0.7'), (f) => void (f['subgraph.yaml'] += template));
      assert.deepEqual(findings, [], kind);
    }
  });

  test('a number or boolean kind is a type mismatch (it used to pass unreported)', () => {
    const number = only(run(m('  - kind: ethereum', '  - kind: 5')), 'type-mismatch');
    assert.equal(number.message, 'Expected string, found number 5: YAML reads it as a number; put it in quotes');
    const boolean = only(run(m('  - kind: ethereum', '  - kind: true')), 'type-mismatch');
    assert.equal(boolean.message, 'Expected string, found boolean true (dataSources[0].kind)');
  });

  test('an unknown kind close to no known one: the expected kinds, no suggestion and no fix', () => {
    const f = only(run(m('  - kind: ethereum', '  - kind: zzzzzzzzzz')), 'unknown-kind');
    assert.equal(f.message, "Unknown data source kind 'zzzzzzzzzz'; expected ethereum or ethereum/contract");
    assert.equal(f.fix, undefined);
  });
});

describe('specVersion and apiVersion', () => {
  test('a spelling of the oldest apiVersion (0.0.05) does not exist; it is not "too old"', () => {
    const findings = run(m('apiVersion: 0.0.7', 'apiVersion: 0.0.05'));
    assert.deepEqual(withCode(findings, 'api-version-too-old'), []);
    const f = only(findings, 'unknown-api-version');
    assert.equal(f.severity, 'error');
    assert.match(f.message, /^apiVersion 0\.0\.05 does not exist; known versions: 0\.0\.5, /);
  });

  test('a spelling of the newest version (1.3.00, 0.0.09) does not exist; it is not "newer"', () => {
    const spec = only(run(m('specVersion: 0.0.5', 'specVersion: 1.3.00')), 'unknown-spec-version');
    assert.equal(spec.severity, 'error');
    assert.match(spec.message, /^specVersion 1\.3\.00 does not exist; known versions: /);
    const api = only(run(m('apiVersion: 0.0.7', 'apiVersion: 0.0.09')), 'unknown-api-version');
    assert.equal(api.severity, 'error');
    assert.match(api.message, /^apiVersion 0\.0\.09 does not exist/);
  });

  test('the apiVersion is not held against the installed graph-ts (graph-ts 0.32.0 builds apiVersion 0.0.9)', () => {
    assert.deepEqual(run(m('apiVersion: 0.0.7', 'apiVersion: 0.0.9'), graphTs('0.32.0')), []);
    assert.deepEqual(run(m('specVersion: 0.0.5', 'specVersion: 1.0.0'), m('apiVersion: 0.0.7', 'apiVersion: 0.0.5'), graphTs('0.31.0')), []);
  });
});

describe('contract addresses', () => {
  test('40 hex digits and nothing else: characters before or after them make it invalid', () => {
    const hex = ADDRESS.slice(2).toLowerCase();
    for (const bad of [`zz${hex}`, `0x${hex}zz`]) {
      const f = only(run(m(ADDRESS, bad)), 'invalid-address');
      assert.equal(f.message, `Contract address is invalid: ${bad}: must be 40 hexadecimal digits after 0x (found 42 characters)`);
    }
  });

  test('a wrong checksum on an address written without 0x: the fix is the checksummed digits, still without 0x', () => {
    const wrong = ADDRESS.slice(2).replace('A0b8', 'A0B8');
    const f = only(run(m(ADDRESS, wrong)), 'address-checksum');
    assert.equal(f.fix?.edits[0].text, `"${ADDRESS.slice(2)}"`);
  });

  // One address in its EIP-1191 form for chain 30 and its EIP-55 form (EIP-1191's own example address).
  const RSK_FORM = '0xFb6916095cA1Df60bb79ce92cE3EA74c37c5d359';
  const EIP55_FORM = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

  test('on Rootstock (chain 30) an EIP-1191 checksum is valid, and so is EIP-55; a typo names the chain rule and offers its form', () => {
    for (const network of ['rootstock', 'rootstock-mainnet']) {
      assert.deepEqual(withCode(run(m('network: mainnet', `network: ${network}`), m(ADDRESS, RSK_FORM)), 'address-checksum'), [], network);
      assert.deepEqual(withCode(run(m('network: mainnet', `network: ${network}`), m(ADDRESS, EIP55_FORM)), 'address-checksum'), [], network);
    }
    const typo = only(run(m('network: mainnet', 'network: rootstock'), m(ADDRESS, RSK_FORM.replace('Fb69', 'FB69'))), 'address-checksum');
    assert.equal(typo.severity, 'info');
    assert.equal(typo.message, `Address checksum (neither EIP-1191 for chain 30 (rootstock) nor EIP-55) is wrong: the mixed-case form is ${RSK_FORM}; a typo in the address?`);
    assert.equal(typo.fix?.edits[0].text, `"${RSK_FORM}"`);
  });

  test('the chain id is part of the EIP-1191 form: chain 30’s is wrong on the Rootstock testnet (31) and on mainnet', () => {
    const testnet = only(run(m('network: mainnet', 'network: rootstock-testnet'), m(ADDRESS, RSK_FORM)), 'address-checksum');
    assert.match(testnet.message, /^Address checksum \(neither EIP-1191 for chain 31 \(rootstock-testnet\) nor EIP-55\) is wrong/);
    const mainnet = only(run(m(ADDRESS, RSK_FORM)), 'address-checksum');
    assert.equal(mainnet.message, `Address checksum (EIP-55) is wrong: the mixed-case form is ${EIP55_FORM}; a typo in the address?`);
  });
});

describe('block numbers (32-bit signed in graph-node)', () => {
  test('startBlock 0 and 2147483647 are valid; one past either end is not', () => {
    for (const good of ['0', '2147483647']) assert.deepEqual(run(m('startBlock: 6082465', `startBlock: ${good}`)), [], good);
    for (const bad of ['-1', '2147483648']) {
      assert.equal(
        only(run(m('startBlock: 6082465', `startBlock: ${bad}`)), 'invalid-block-number').message,
        `dataSources[0].source.startBlock must be a block number between 0 and 2147483647, not ${bad}`,
      );
    }
  });

  test('endBlock and graft.block: the same rule, the same message', () => {
    const end = only(run(m('specVersion: 0.0.5', 'specVersion: 0.0.9'), m('startBlock: 6082465', 'startBlock: 0\n      endBlock: -1')), 'invalid-block-number');
    assert.equal(end.message, 'dataSources[0].source.endBlock must be a block number between 0 and 2147483647, not -1');
    const graft = only(run(m('schema:', `features:\n  - grafting\ngraft:\n  base: ${DEPLOYMENT}\n  block: -1\nschema:`)), 'invalid-block-number');
    assert.equal(graft.message, 'graft.block must be a block number between 0 and 2147483647, not -1');
  });
});

test('an unknown feature close to no known one: the known features, no suggestion and no fix', () => {
  const f = only(run(m('schema:', 'features:\n  - zzzzzzzzzz\nschema:')), 'unknown-feature');
  assert.equal(f.message, "Unknown feature 'zzzzzzzzzz'; graph-node knows nonFatalErrors, fullTextSearch, grafting, ipfsOnEthereumContracts");
  assert.equal(f.fix, undefined);
});

test('graft.base must be a whole deployment id: nothing before Qm, nothing after the 46 characters', () => {
  const graft = (base: string) => m('schema:', `features:\n  - grafting\ngraft:\n  base: ${base}\n  block: 1\nschema:`);
  assert.deepEqual(run(graft(DEPLOYMENT)), []);
  for (const bad of [`x${DEPLOYMENT}`, `${DEPLOYMENT}x`]) assert.equal(only(run(graft(bad)), 'invalid-deployment-id').severity, 'warning', bad);
});

test("indexerHints.prune: 'auto', 'never' or a whole number of blocks from 0 up", () => {
  const prune = (value: string) => [m('specVersion: 0.0.5', 'specVersion: 1.0.0'), m('schema:', `indexerHints:\n  prune: ${value}\nschema:`)];
  for (const good of ['auto', 'never', '0', '100']) assert.deepEqual(run(...prune(good)), [], good);
  for (const bad of ['-1', '1.5']) {
    const f = only(run(...prune(bad)), 'invalid-prune');
    assert.equal(f.severity, 'error');
    assert.equal(f.message, `indexerHints.prune must be 'auto', 'never' or a number of blocks, not ${bad}`);
  }
});

// A bad `every` used to be reported as an unexpected key: the plain filter, which has no `every`,
// tied with the polling one on problems and won as the first variant.
test('a polling block filter runs every N blocks: N a whole number, at least 1; a bad N is not an unexpected key', () => {
  const every = (value: string) => [
    m('specVersion: 0.0.5', 'specVersion: 0.0.8'),
    m('      eventHandlers:', `      blockHandlers:\n        - handler: handleApproval\n          filter:\n            kind: polling\n            every: ${value}\n      eventHandlers:`),
  ];
  for (const good of ['1', '10']) assert.deepEqual(run(...every(good)), [], good);
  for (const bad of ['0', '-3', '1.5']) {
    const f = only(run(...every(bad)), 'invalid-block-number');
    assert.equal(f.severity, 'error', bad);
    assert.equal(f.message, `every must be a whole number of blocks, at least 1, not ${bad}`);
  }
  const quoted = run(...every('"5"'));
  assert.deepEqual(withCode(quoted, 'unknown-key'), []);
  assert.equal(only(quoted, 'type-mismatch').fix?.edits[0].text, '5');
});

describe('versions.ts helpers, at what the rules above do not reach', () => {
  test('compareVersions treats both sides alike: a suffix or junk on the right counts as on the left', () => {
    const pairs: [string, string][] = [
      ['0.38.0', '0.38.0-alpha.1'],
      ['0.37.0', '0.38.0-alpha'],
      ['0.38.1', '0.38.0+build'],
      ['1.0.0', 'not a version'],
      ['0.0.0', 'junk'],
    ];
    for (const [a, b] of pairs) assert.equal(compareVersions(a, b) + compareVersions(b, a), 0, `${a} vs ${b}`);
    assert.equal(compareVersions('0.38.0', '0.38.0-alpha.1'), 0);
    assert.ok(compareVersions('0.37.0', '0.38.0-alpha') < 0);
    assert.ok(compareVersions('1.0.0', 'not a version') > 0);
  });

  test('rangeAtLeast reads the whole range: other operators, or more after the version, are not understood', () => {
    for (const range of ['>0.96.0', '<=0.98.0', 'workspace:^0.96.0', '0.96.0 || 0.98.0', '0.96.0 - 0.98.0']) assert.equal(rangeAtLeast(range, '0.97.0'), undefined, range);
  });

  test('rangeAtLeast: numbers of more than one digit in the major and patch places', () => {
    assert.equal(rangeAtLeast('^10.0.0', '0.97.0'), true);
    assert.equal(rangeAtLeast('0.97.10', '0.97.0'), true);
    assert.equal(rangeAtLeast('~0.96.12', '0.97.0'), false);
  });

  test('rangeAtLeast: an exact version below a patch release is below it (no tilde range is implied)', () => {
    assert.equal(rangeAtLeast('1.2.3', '1.2.5'), false);
    assert.equal(rangeAtLeast('=1.2.3', '1.2.5'), false);
  });
});
