/**
 * One or more cases per validation rule, on the tutorial subgraph with a few edits, in memory:
 * each rule must fire where it should (with the right severity, range and fix) and stay quiet on
 * valid variations.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe } from 'node:test';
import type { Finding } from '../../../../../src/core/subgraph/types';
import { replaceIn, VIRTUAL_MANIFEST, VIRTUAL_ROOT, type Edit } from '../../../../fixtures/subgraphs/corpus';
import { findingsRecorder } from '../../../../support/findings';
import { only, validateTutorial } from '../../../../support/rules';

const m = (from: string | RegExp, to: string) => replaceIn('subgraph.yaml', from, to);
const s = (from: string | RegExp, to: string) => replaceIn('schema.graphql', from, to);
const put =
  (file: string, text: string): Edit =>
  (files) =>
    void (files[file] = text);

// Every run's findings, under the name of the test that ran it, for rules.findings.txt (the last test).
const { test, record, check } = findingsRecorder();

function run(edits: Edit[] = [], mtimes: Record<string, number> = {}): Finding[] {
  return record(validateTutorial(edits, mtimes));
}

/** The finding's range as [line, character, line, character], 0-based. */
const at = (f: Finding) => [f.range.start.line, f.range.start.character, f.range.end.line, f.range.end.character];
const schemaFile = path.join(VIRTUAL_ROOT, 'schema.graphql');
const mappingFile = path.join(VIRTUAL_ROOT, 'src', 'mapping.ts');
const ADDRESS = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const APPROVAL = 'Approval(indexed address,indexed address,uint256)';

describe('valid variations give no finding', () => {
  const valid: [string, Edit[]][] = [
    ['the tutorial as is', []],
    ['an all-lowercase address', [m(ADDRESS, ADDRESS.toLowerCase())]],
    ['an all-uppercase address', [m(ADDRESS, `0x${ADDRESS.slice(2).toUpperCase()}`)]],
    ['an address without 0x', [m(ADDRESS, ADDRESS.slice(2))]],
    ['single-quoted values', [m(`"${ADDRESS}"`, `'${ADDRESS}'`), m('file: ./schema.graphql', "file: './schema.graphql'")]],
    ['another EVM network', [m('network: mainnet', 'network: arbitrum-one')]],
    ['specVersion 1.3.0 and apiVersion 0.0.9', [m('specVersion: 0.0.5', 'specVersion: 1.3.0'), m('apiVersion: 0.0.7', 'apiVersion: 0.0.9')]],
    ['CRLF line ends', [(f) => void (f['subgraph.yaml'] = f['subgraph.yaml'].replace(/\n/g, '\r\n'))]],
    ['comments everywhere', [m('dataSources:', '# contracts\ndataSources: # the list\n  # first'), m('startBlock: 6082465', 'startBlock: 6082465 # deployment')]],
    ['endBlock after startBlock with specVersion 0.0.9', [m('specVersion: 0.0.5', 'specVersion: 0.0.9'), m('startBlock: 6082465', 'startBlock: 6082465\n      endBlock: 7000000')]],
    [
      'a polling block handler',
      [
        m('specVersion: 0.0.5', 'specVersion: 0.0.8'),
        m('      eventHandlers:', '      blockHandlers:\n        - handler: handleApproval\n          filter:\n            kind: polling\n            every: 10\n      eventHandlers:'),
      ],
    ],
    ['receipts with specVersion 0.0.5 and apiVersion 0.0.7', [m('          handler: handleApproval', '          handler: handleApproval\n          receipt: true')]],
    ['grafting declared', [m('schema:', 'features:\n  - grafting\ngraft:\n  base: QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM\n  block: 7000000\nschema:')]],
    ['indexerHints with specVersion 1.0.0', [m('specVersion: 0.0.5', 'specVersion: 1.0.0'), m('schema:', 'indexerHints:\n  prune: auto\nschema:')]],
    ['Int8 ids with specVersion 1.1.0', [m('specVersion: 0.0.5', 'specVersion: 1.1.0'), s('id: ID!', 'id: Int8!')]],
    [
      'a handler exported by `export { }`',
      [replaceIn('src/mapping.ts', 'export function handleApproval', 'function handleApproval'), replaceIn('src/mapping.ts', /$/, '\nexport { handleApproval };\n')],
    ],
    ['a handler re-exported with `export *`', [put('src/mapping.ts', 'export * from "./handlers";\n'), put('src/handlers.ts', 'export function handleApproval(e: Approval): void {}\n')]],
    ['a commented-out duplicate handler', [replaceIn('src/mapping.ts', /$/, '\n// export function handleOther(e: Approval): void {}\n')]],
    ['a template of the same contract', [(f) => void (f['subgraph.yaml'] += templateBlock())]],
    [
      'a file data source template',
      [
        m('specVersion: 0.0.5', 'specVersion: 0.0.7'),
        (f) =>
          void (f['subgraph.yaml'] +=
            'templates:\n  - kind: file/ipfs\n    name: Metadata\n    mapping:\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      file: ./src/mapping.ts\n      handler: handleApproval\n      entities:\n        - ApprovalQuery\n'),
      ],
    ],
    ['YAML aliases', [m('    name: ERC20', '    name: &n ERC20'), m('      abi: ERC20', '      abi: *n')]],
    [
      'a schema with enums, interfaces and @derivedFrom',
      [
        s(
          /$/,
          '\nenum Kind { A B }\ninterface Named { id: ID! name: String! }\ntype Owner implements Named @entity(immutable: false) {\n  id: ID!\n  name: String!\n  kind: Kind\n  approvals: [ApprovalQuery!]! @derivedFrom(field: "ownerRef")\n}\n',
        ),
        s('value: BigInt!', 'value: BigInt!\n  ownerRef: Owner'),
      ],
    ],
  ];
  for (const [name, edits] of valid) {
    test(name, () =>
      assert.deepEqual(
        run(edits).map((f) => `${f.code}: ${f.message}`),
        [],
      ),
    );
  }
});

function templateBlock(name = 'Pair'): string {
  return `templates:\n  - kind: ethereum\n    name: ${name}\n    network: mainnet\n    source:\n      abi: ERC20\n    mapping:\n      kind: ethereum/events\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      entities:\n        - ApprovalQuery\n      abis:\n        - name: ERC20\n          file: ./abis/ERC20.json\n      eventHandlers:\n        - event: ${APPROVAL}\n          handler: handleApproval\n      file: ./src/mapping.ts\n`;
}

describe('YAML', () => {
  test('a syntax error is reported alone, at its place', () => {
    const f = run([m('\n    name: ERC20', '\n     name: ERC20')]);
    assert.deepEqual(
      f.map((x) => x.code),
      ['yaml-syntax'],
    );
    assert.equal(f[0].range.start.line, 5);
  });
  test('duplicate keys', () => {
    const f = only(run([m('    name: ERC20', '    name: ERC20\n    name: Token')]), 'duplicate-key');
    assert.deepEqual(at(f), [7, 4, 7, 8]);
  });
  test('YAML warnings (an unknown tag) are warnings, and the rules still run', () => {
    const f = run([m('description: ERC-20', 'description: !note ERC-20'), m('network: mainnet', 'network: mainet')]);
    assert.deepEqual(
      f.map((x) => [x.code, x.severity]),
      [
        ['yaml-warning', 'warning'],
        ['unknown-network', 'info'],
      ],
    );
  });
  test('an empty manifest', () => assert.equal(only(run([put('subgraph.yaml', '# nothing yet\n')]), 'empty-manifest').severity, 'error'));
  test('a scalar where the manifest map belongs', () => assert.ok(run([put('subgraph.yaml', 'just text')]).some((f) => f.code === 'type-mismatch')));
});

describe('shape', () => {
  test('unknown key, with a did-you-mean and a rename fix, at the key', () => {
    const f = only(run([m('startBlock: 6082465', 'startblock: 6082465')]), 'unknown-key');
    assert.match(f.message, /did you mean 'startBlock'\?/);
    assert.deepEqual(at(f), [11, 6, 11, 16]);
    assert.deepEqual(f.fix?.kind === 'replace' && f.fix.edits, [{ range: f.range, text: 'startBlock' }]);
  });
  test('unknown key far from any known one: no suggestion', () => {
    const f = only(run([m('    name: ERC20', '    name: ERC20\n    colour: blue')]), 'unknown-key');
    assert.doesNotMatch(f.message, /did you mean/);
    assert.equal(f.fix, undefined);
  });
  test('unknown top-level key', () => assert.match(only(run([m('schema:', 'x-notes: hi\nschema:')]), 'unknown-key').message, /'x-notes' in the manifest/));
  test('a YAML merge key is an unknown key, as graph-cli reads it', () => {
    assert.match(only(run([m('    name: ERC20', '    <<: {name: ERC20}')]), 'unknown-key').message, /merge keys/);
  });
  test('missing required key, at the key of its map', () => {
    const f = only(run([m('      abi: ERC20\n', '')]), 'missing-key');
    assert.match(f.message, /'abi' in dataSources\[0\]\.source/);
    assert.deepEqual(at(f), [8, 4, 8, 10]);
  });
  test('a required key without a value', () => assert.match(only(run([m('      abi: ERC20', '      abi:')]), 'missing-value').message, /No value provided/));
  test('quoted startBlock: Expected BigInt, with an unquote fix', () => {
    const f = only(run([m('startBlock: 6082465', 'startBlock: "6082465"')]), 'type-mismatch');
    assert.match(f.message, /^Expected BigInt, found string/);
    assert.deepEqual(f.fix?.edits[0].text, '6082465');
  });
  test('unquoted address: an error telling to quote it, at the value, with a quoting fix', () => {
    const f = only(run([m(`"${ADDRESS}"`, ADDRESS)]), 'unquoted-address');
    assert.match(f.message, /put it in quotes/);
    assert.deepEqual(at(f), [9, 15, 9, 57]);
    assert.equal(f.fix?.edits[0].text, `"${ADDRESS}"`);
  });
  test('a list where a map belongs', () => assert.match(only(run([m(/ {4}source:\n(?: {6}.*\n)+/, '    source:\n      - abi\n')]), 'type-mismatch').message, /Expected map, found list/));
  test('a map where a list belongs', () =>
    assert.match(only(run([m('      entities:\n        - ApprovalQuery', '      entities:\n        first: ApprovalQuery')]), 'type-mismatch').message, /Expected list of string, found map/));
  test('a value outside the enum', () => {
    const f = only(
      run([m('      eventHandlers:', '      blockHandlers:\n        - handler: handleApproval\n          filter:\n            kind: cal\n      eventHandlers:')]),
      'invalid-enum',
    );
    assert.equal(f.fix?.edits[0].text, 'call');
  });
  test('a missing file: schema, ABI, mapping', () => {
    for (const [from, to] of [
      ['./schema.graphql', './schema.gql'],
      ['./abis/ERC20.json', './abis/erc20.json'],
      ['./src/mapping.ts', './src/mappings.ts'],
    ]) {
      assert.equal(only(run([m(from, to)]), 'file-not-found').message, `File does not exist: ${to}`);
    }
  });
});

describe('known values', () => {
  test('specVersion', () => {
    assert.equal(only(run([m('specVersion: 0.0.5', 'specVersion: 0.0.99')]), 'unknown-spec-version').severity, 'error');
    assert.equal(only(run([m('specVersion: 0.0.5', 'specVersion: 0.0.1')]), 'unknown-spec-version').severity, 'error');
    assert.equal(only(run([m('specVersion: 0.0.5', 'specVersion: 1.9.0')]), 'unknown-spec-version').severity, 'warning');
    assert.match(only(run([m('specVersion: 0.0.5', 'specVersion: latest')]), 'unknown-spec-version').message, /not a version/);
    assert.equal(only(run([m('specVersion: 0.0.5', 'specVersion: 1.0')]), 'type-mismatch').fix?.edits[0].text, '"1.0"');
  });
  test('apiVersion', () => {
    assert.equal(only(run([m('apiVersion: 0.0.7', 'apiVersion: 0.0.4')]), 'api-version-too-old').severity, 'error');
    assert.equal(only(run([m('apiVersion: 0.0.7', 'apiVersion: 0.0.10')]), 'unknown-api-version').severity, 'warning');
  });
  test('data source kind', () => {
    const f = only(run([m('  - kind: ethereum', '  - kind: etherium')]), 'unknown-kind');
    assert.equal(f.fix?.edits[0].text, 'ethereum');
    // A near data source is checked against graph-cli's near shape: Ethereum keys are unexpected there.
    const near = run([m('  - kind: ethereum', '  - kind: near')]);
    assert.ok(
      near.some((f) => f.code === 'unknown-key' && f.message.includes("'address'")),
      JSON.stringify(near.map((f) => f.message)),
    );
  });
  test('mapping kind and language', () => {
    assert.equal(only(run([m('kind: ethereum/events', 'kind: ethereum/event')]), 'unknown-mapping-kind').fix?.edits[0].text, 'ethereum/events');
    assert.equal(only(run([m('language: wasm/assemblyscript', 'language: assemblyscript')]), 'unknown-language').fix?.edits[0].text, 'wasm/assemblyscript');
  });
  test('networks: unknown, alias, other protocol', () => {
    const unknown = only(run([m('network: mainnet', 'network: mainet')]), 'unknown-network');
    assert.equal(unknown.severity, 'info');
    assert.equal(unknown.fix?.edits[0].text, 'mainnet');
    assert.equal(only(run([m('network: mainnet', 'network: my-devnet')]), 'unknown-network').fix, undefined);
    assert.equal(only(run([m('network: mainnet', 'network: eth')]), 'network-alias').fix?.edits[0].text, 'mainnet');
    assert.equal(only(run([m('network: mainnet', 'network: near-mainnet')]), 'network-protocol').severity, 'error');
  });
  test('a network named like an Object property (constructor, __proto__, toString) is an unknown network, not an alias', () => {
    const wrong = ADDRESS.replace('A0b8', 'A0B8');
    for (const name of ['constructor', '__proto__', 'toString']) {
      const findings = run([m('network: mainnet', `network: ${name}`), m(ADDRESS, wrong)]);
      assert.deepEqual(
        findings.filter((f) => f.code.includes('network')).map((f) => f.code),
        ['unknown-network'],
        name,
      );
      assert.match(only(findings, 'address-checksum').message, /^Address checksum \(EIP-55\) is wrong/, name);
    }
  });
  test('invalid address', () => assert.match(only(run([m(ADDRESS, '0x1234')]), 'invalid-address').message, /^Contract address is invalid: 0x1234/));
  test('wrong EIP-55 checksum: a hint (neither tool checks it) whose fix is the checksummed form, quotes kept', () => {
    const wrong = ADDRESS.replace('A0b8', 'A0B8');
    const f = only(run([m(ADDRESS, wrong)]), 'address-checksum');
    assert.equal(f.severity, 'info');
    assert.equal(f.fix?.edits[0].text, `"${ADDRESS}"`);
    assert.deepEqual(at(f), [9, 15, 9, 59]);
  });
  test('block numbers', () => {
    for (const bad of ['-1', '1.5', '4294967296']) {
      assert.equal(only(run([m('startBlock: 6082465', `startBlock: ${bad}`)]), 'invalid-block-number').severity, 'error', bad);
    }
  });
  test('endBlock before startBlock, and endBlock below specVersion 0.0.9', () => {
    const f = run([m('startBlock: 6082465', 'startBlock: 6082465\n      endBlock: 100')]);
    assert.equal(only(f, 'end-before-start').severity, 'info');
    // An endBlock equal to the startBlock indexes that one block: nothing to say.
    assert.equal(run([m('startBlock: 6082465', 'startBlock: 6082465\n      endBlock: 6082465')]).filter((x) => x.code === 'end-before-start').length, 0);
    const low = only(f, 'spec-version-too-low');
    assert.match(low.message, /needs specVersion 0\.0\.9/);
    assert.deepEqual(low.fix?.edits[0], { range: { start: { line: 0, character: 13 }, end: { line: 0, character: 18 } }, text: '0.0.9' });
  });
  test('features: unknown, undeclared, too early', () => {
    assert.equal(only(run([m('schema:', 'features:\n  - nonFatalError\nschema:')]), 'unknown-feature').fix?.edits[0].text, 'nonFatalErrors');
    assert.match(only(run([m('schema:', 'graft:\n  base: QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM\n  block: 1\nschema:')]), 'feature-undeclared').message, /grafting/);
    // graph-node requires no specVersion for `features` (it validates declarations from 0.0.4 on).
    assert.deepEqual(
      run([m('specVersion: 0.0.5', 'specVersion: 0.0.3'), m('schema:', 'features:\n  - nonFatalErrors\nschema:')]).map((f) => f.code),
      [],
    );
    const fulltext = '\ntype _Schema_ @fulltext(name: "search", language: en, algorithm: rank, include: [{entity: "ApprovalQuery", fields: [{name: "owner"}]}])\n';
    assert.match(only(run([s(/$/, fulltext)]), 'feature-undeclared').message, /fullTextSearch/);
  });
  test('graft base and indexerHints', () => {
    assert.equal(only(run([m('schema:', 'features: [grafting]\ngraft:\n  base: my-old-subgraph\n  block: 1\nschema:')]), 'invalid-deployment-id').severity, 'warning');
    assert.equal(only(run([m('specVersion: 0.0.5', 'specVersion: 1.0.0'), m('schema:', 'indexerHints:\n  prune: sometimes\nschema:')]), 'invalid-prune').severity, 'error');
    assert.ok(run([m('schema:', 'indexerHints:\n  prune: never\nschema:')]).some((f) => f.code === 'spec-version-too-low'));
  });
  test('block filters: polling needs every; every only for polling', () => {
    const handler = (filter: string) => m('      eventHandlers:', `      blockHandlers:\n        - handler: handleApproval\n          filter:\n${filter}      eventHandlers:`);
    const spec = m('specVersion: 0.0.5', 'specVersion: 0.0.8');
    assert.equal(only(run([spec, handler('            kind: polling\n')]), 'polling-needs-every').severity, 'error');
    assert.equal(only(run([spec, handler('            kind: call\n            every: 5\n')]), 'every-without-polling').severity, 'info');
    assert.ok(run([handler('            kind: once\n')]).some((f) => f.code === 'spec-version-too-low'));
  });
});

describe('across files', () => {
  test('event not in the ABI: at the value, with the best replacement as a fix', () => {
    const f = only(run([m(APPROVAL, 'Approval(address,address,uint256)')]), 'event-not-in-abi');
    assert.deepEqual(at(f), [22, 17, 22, 50]);
    assert.match(f.message, /Available events: Approval\(indexed address,indexed address,uint256\), Transfer\(/);
    assert.equal(f.fix?.edits[0].text, APPROVAL);
  });
  test('an event of the ABI chosen by name when the types differ', () => {
    assert.equal(only(run([m(APPROVAL, 'Transfer(address)')]), 'event-not-in-abi').fix?.edits[0].text, 'Transfer(indexed address,indexed address,uint256)');
  });
  test('an event nothing like the ABI: no fix', () => assert.equal(only(run([m(APPROVAL, 'Minted(uint256)')]), 'event-not-in-abi').fix, undefined));
  test('spaces in a signature the CLI would refuse', () => {
    assert.equal(only(run([m(APPROVAL, 'Approval(indexed address, indexed address, uint256)')]), 'event-signature-format').fix?.edits[0].text, APPROVAL);
  });
  test('call handler function not in the ABI', () => {
    const f = only(
      run([m('      eventHandlers:', '      callHandlers:\n        - function: aprove(address,uint256)\n          handler: handleApproval\n      eventHandlers:')]),
      'function-not-in-abi',
    );
    assert.equal(f.fix?.edits[0].text, 'approve(address,uint256)');
  });
  test('the ABI file does not parse', () => assert.match(only(run([put('abis/ERC20.json', '{"abi": 3}')]), 'abi-invalid').message, /No valid ABI/));
  test('source.abi not in mapping.abis', () => assert.equal(only(run([m('      abi: ERC20', '      abi: ERC2O')]), 'abi-not-listed').fix?.edits[0].text, 'ERC20'));
  test('handler with a typo: a rename fix', () =>
    assert.equal(only(run([m('handler: handleApproval', 'handler: handleAproval')]), 'handler-not-exported').fix?.edits[0].text, 'handleApproval'));
  test('a misspelt handler a typo apart: "Change to" first, the stub under the name as written after', () => {
    const f = only(run([m('handler: handleApproval', 'handler: handleAproval')]), 'handler-not-exported');
    assert.equal(f.fix?.title, 'Change to handleApproval');
    assert.equal(f.alternative?.title, 'Add handler handleAproval to mapping.ts');
  });
  test('a handler named past a typo (a suffix, another prefix, snake case): "Change to" the export first', () => {
    for (const written of ['handleApprovalEvent', 'onApproval', 'handle_approval']) {
      const f = only(run([m('handler: handleApproval', `handler: ${written}`)]), 'handler-not-exported');
      assert.equal(f.fix?.title, 'Change to handleApproval', written);
      assert.match(f.message, /did you mean 'handleApproval'\?/);
      assert.equal(f.alternative?.kind, 'add-handler', written);
    }
  });
  test('an entity named past a typo: "Change to" first, the new entity type after', () => {
    const f = only(run([m('        - ApprovalQuery', '        - ApprovalQueryEntity')]), 'entity-not-in-schema');
    assert.equal(f.fix?.title, 'Change to ApprovalQuery');
    assert.equal(f.alternative?.kind, 'add-entity');
  });
  test('an event and an ABI named past a typo: "Change to" the one of the ABI', () => {
    assert.equal(only(run([m(APPROVAL, 'ApprovalEvent(address,address,uint256)')]), 'event-not-in-abi').fix?.title, `Change to ${APPROVAL}`);
    assert.equal(only(run([m('      abi: ERC20\n', '      abi: ERC20Token\n')]), 'abi-not-listed').fix?.title, 'Change to ERC20');
  });
  test('a new handler: a fix adding it to the mapping, with its event import', () => {
    const f = only(run([m('handler: handleApproval', 'handler: handleAllowance')]), 'handler-not-exported');
    assert.equal(f.alternative, undefined);
    assert.equal(f.fix?.kind, 'add-handler');
    if (f.fix?.kind !== 'add-handler') return;
    assert.equal(f.fix.file, mappingFile);
    assert.equal(f.fix.event?.signature, APPROVAL);
    assert.deepEqual(
      f.fix.event?.params.map((p) => `${p.indexed ? 'indexed ' : ''}${p.type} ${p.name}`),
      ['indexed address owner', 'indexed address spender', 'uint256 value'],
    );
    const texts = f.fix.edits.map((e) => e.text);
    assert.ok(
      texts.some((t) => t.includes('export function handleAllowance(event: Approval): void {')),
      texts.join('\n'),
    );
    // Approval is imported already from generated/ERC20/ERC20: no second import.
    assert.equal(texts.length, 1);
  });
  test('a mapping file without the handler and without imports: the import is added', () => {
    const f = only(run([put('src/mapping.ts', '')]), 'handler-not-exported');
    const texts = f.fix!.edits.map((e) => e.text);
    assert.deepEqual(texts[0], 'import { Approval } from "../generated/ERC20/ERC20";\n');
  });
  test('entity not in the schema: an add-entity fix with the event’s fields', () => {
    const f = only(run([m('        - ApprovalQuery\n', '        - ApprovalQuery\n        - Transfer\n')]), 'entity-not-in-schema');
    assert.equal(f.fix?.kind, 'add-entity');
    assert.equal(f.fix?.file, schemaFile);
    assert.equal(f.fix?.edits[0].text, '\ntype Transfer @entity(immutable: true) {\n  id: Bytes!\n  from: Bytes!\n  to: Bytes!\n  value: BigInt!\n}\n');
  });
  test('entity with a near name: a rename fix', () =>
    assert.equal(only(run([m('        - ApprovalQuery', '        - ApprovalQueries')]), 'entity-not-in-schema').fix?.edits[0].text, 'ApprovalQuery'));
  test('entity not in the schema is a hint only: neither graph-cli nor graph-node checks mapping.entities', () => {
    const f = only(run([m('        - ApprovalQuery', '        - Transfer')]), 'entity-not-in-schema');
    assert.equal(f.severity, 'info');
    assert.match(f.message, /do not check mapping\.entities/);
  });
  test('mapping imports a type the schema does not have: in the mapping file', () => {
    const f = only(run([replaceIn('src/mapping.ts', '{ ApprovalQuery }', '{ ApprovalQuery, Holder }')]), 'mapping-import-unknown');
    assert.equal(f.file, mappingFile);
    assert.deepEqual(at(f), [3, 24, 3, 30]);
  });
  test('no handlers at all', () => assert.equal(only(run([m(/ {6}eventHandlers:\n.*\n.*\n/, '')]), 'no-handlers').severity, 'error'));
  test('a template without handlers is fine (graph-cli requires handlers on data sources only)', () => {
    const f = run([(files) => (files['subgraph.yaml'] += templateBlock().replace(/ {6}eventHandlers:\n.*\n.*\n/, ''))]);
    assert.deepEqual(
      f.map((x) => x.code),
      [],
    );
  });
  test('a missing handler: graph-node fails at the first trigger, not graph build', () => {
    const f = only(run([m('handler: handleApproval', 'handler: handleSomethingElse')]), 'handler-not-exported');
    assert.equal(f.severity, 'error');
    assert.match(f.message, /graph-node fails the subgraph when the first trigger for it arrives/);
    assert.doesNotMatch(f.message, /graph build fails/);
  });
  test('duplicate names of data sources and of templates', () => {
    const f = run([(files) => (files['subgraph.yaml'] += templateBlock() + templateBlock().replace('templates:\n', ''))]);
    assert.equal(only(f, 'duplicate-template-name').severity, 'error');
    const ds = run([(files) => (files['subgraph.yaml'] += files['subgraph.yaml'].slice(files['subgraph.yaml'].indexOf('  - kind')))]);
    assert.equal(only(ds, 'duplicate-data-source-name').range.start.line, 26);
    // graph-cli checks each list on its own (validateUniqueDataSourceNames, validateUniqueTemplateNames):
    // a template named like a data source is fine.
    const shared = run([(files) => (files['subgraph.yaml'] += templateBlock('ERC20'))]);
    assert.deepEqual(
      shared.filter((x) => x.code.startsWith('duplicate-')).map((x) => x.code),
      [],
    );
  });
  test('networks and apiVersions must agree across data sources and templates', () => {
    const f = run([(files) => (files['subgraph.yaml'] += templateBlock().replace('network: mainnet', 'network: base').replace('apiVersion: 0.0.7', 'apiVersion: 0.0.6'))]);
    assert.equal(only(f, 'conflicting-networks').severity, 'error');
    assert.equal(only(f, 'api-version-mismatch').severity, 'error');
  });
  test('receipts need apiVersion 0.0.7, whatever the specVersion', () => {
    const receipt = m('          handler: handleApproval', '          handler: handleApproval\n          receipt: true');
    const f = run([m('apiVersion: 0.0.7', 'apiVersion: 0.0.6'), m('specVersion: 0.0.5', 'specVersion: 0.0.4'), receipt]);
    assert.equal(only(f, 'api-version-too-low').severity, 'error');
    assert.ok(!f.some((x) => x.code === 'spec-version-too-low'));
    assert.deepEqual(
      run([m('specVersion: 0.0.5', 'specVersion: 0.0.4'), receipt]).map((x) => x.code),
      [],
    );
  });
  test('topic filters and declared calls need specVersion 1.2.0', () => {
    const f = run([m('          handler: handleApproval', '          handler: handleApproval\n          topic1: ["0x0000000000000000000000000000000000000000"]')]);
    assert.match(only(f, 'spec-version-too-low').message, /^A topic1 filter needs specVersion 1\.2\.0/);
  });
  test('no data sources', () => assert.ok(run([m(/dataSources:\n[\s\S]*$/, 'dataSources: []\n')]).some((f) => f.code === 'no-data-sources')));
});

describe('generated code', () => {
  const generated = { 'generated/schema.ts': '// generated', 'generated/ERC20/ERC20.ts': '// generated' };
  const addGenerated: Edit = (files) => Object.assign(files, generated);
  test('older than schema.graphql: a hint with the codegen action', () => {
    const f = only(run([addGenerated], { 'generated/schema.ts': 100, 'generated/ERC20/ERC20.ts': 300, 'schema.graphql': 200, 'abis/ERC20.json': 50 }), 'generated-stale');
    assert.equal(f.message, 'Generated code is older than ./schema.graphql; run graph codegen');
    assert.equal(f.action, 'run-codegen');
    assert.equal(f.severity, 'info');
  });
  test('older than an ABI', () => {
    const f = only(run([addGenerated], { 'generated/schema.ts': 300, 'generated/ERC20/ERC20.ts': 100, 'schema.graphql': 50, 'abis/ERC20.json': 200 }), 'generated-stale');
    assert.equal(f.range.start.line, 20);
  });
  test('newer than its sources: nothing', () =>
    assert.deepEqual(run([addGenerated], { 'generated/schema.ts': 300, 'generated/ERC20/ERC20.ts': 300, 'schema.graphql': 50, 'abis/ERC20.json': 50 }), []));
  test('a data source codegen has not seen', () => {
    assert.equal(only(run([put('generated/schema.ts', '')], { 'generated/schema.ts': 300 }), 'generated-missing').action, 'run-codegen');
  });
});

describe('schema.graphql', () => {
  const schemaFinding = (code: string, edit: Edit): Finding => {
    const f = only(run([edit]), code);
    assert.equal(f.file, schemaFile);
    return f;
  };
  test('syntax error with its position', () => assert.deepEqual(at(schemaFinding('graphql-syntax', s('value: BigInt!', 'value: BigInt!!'))), [5, 16, 5, 17]));
  test('a type without @entity, with a fix adding it', () => {
    const f = schemaFinding('missing-entity-directive', s(/$/, '\ntype Holder implements Named {\n  id: ID!\n}\ninterface Named { id: ID! }\n'));
    assert.equal(f.fix?.edits[0].text, ' @entity(immutable: true)');
    assert.deepEqual(f.fix?.edits[0].range.start, { line: 8, character: 28 });
  });
  test('@entity without immutable (graph-cli 0.98 requires it)', () =>
    assert.equal(schemaFinding('entity-immutable-missing', s('@entity(immutable: true)', '@entity')).fix?.edits[0].text, '@entity(immutable: true)'));
  test('@entity(timeseries: true) needs no immutable', () =>
    assert.ok(!run([s('@entity(immutable: true)', '@entity(timeseries: true)')]).some((f) => f.code === 'entity-immutable-missing')));
  test('immutable must be a boolean', () => void schemaFinding('entity-argument-not-boolean', s('immutable: true', 'immutable: "yes"')));
  test('id missing', () => void schemaFinding('entity-missing-id', s('  id: ID!\n', '')));
  test('id of a wrong type, at the type', () => {
    const f = schemaFinding('entity-id-type', s('id: ID!', 'id: Int!'));
    assert.equal(f.message, "Field 'id': Entity ids must be of type Int8!, Bytes! or String! (or ID!)");
    assert.deepEqual(at(f), [2, 6, 2, 10]);
  });
  test('a nullable id', () => void schemaFinding('entity-id-type', s('id: ID!', 'id: ID')));
  test('Int8 ids need specVersion 1.1.0: in the schema, with a fix raising specVersion', () => {
    const f = only(run([s('id: ID!', 'id: Int8!')]), 'spec-version-too-low');
    assert.equal(f.file, schemaFile);
    assert.equal(f.fix?.file, VIRTUAL_MANIFEST);
  });
  test('unknown field types, with hints for Solidity names', () => {
    assert.equal(schemaFinding('unknown-field-type', s('owner: Bytes!', 'owner: address!')).fix?.edits[0].text, 'Bytes');
    assert.equal(schemaFinding('unknown-field-type', s('value: BigInt!', 'value: uint256!')).fix?.edits[0].text, 'BigInt');
    assert.equal(schemaFinding('unknown-field-type', s('value: BigInt!', 'value: bigint!')).fix?.edits[0].text, 'BigInt');
  });
  test('lists with null elements', () => void schemaFinding('nullable-list-element', s('value: BigInt!', 'value: [BigInt]!')));
  test('lists with null elements: [X] anywhere, [X]! only on stored fields of non-primitive types (as graph-cli)', () => {
    schemaFinding('nullable-list-element', s('value: BigInt!', 'value: [BigInt]'));
    const pool = (field: string) => s(/$/, `\ntype Pool @entity(immutable: false) {\n  id: Bytes!\n  ${field}\n}\ntype Mint @entity(immutable: true) {\n  id: Bytes!\n  pool: Pool!\n}\n`);
    assert.deepEqual(
      run([pool('mints: [Mint]! @derivedFrom(field: "pool")')]).map((x) => x.code),
      [],
    );
    assert.deepEqual(
      run([pool('counts: [Int]!')]).map((x) => x.code),
      [],
    );
    schemaFinding('nullable-list-element', pool('mints: [Mint] @derivedFrom(field: "pool")'));
    schemaFinding('nullable-list-element', pool('mints: [Mint]!'));
  });
  test('field arguments', () => void schemaFinding('field-arguments', s('value: BigInt!', 'value(unit: String): BigInt!')));
  test('@derivedFrom', () => {
    const owner = (field: string) => s(/$/, `\ntype Owner @entity(immutable: false) {\n  id: Bytes!\n  approvals: [ApprovalQuery!]! @derivedFrom(${field})\n}\n`);
    assert.equal(schemaFinding('derived-from-missing-field', owner('field: "ownr"')).fix?.edits[0].text, '"owner"');
    schemaFinding('derived-from-argument', owner('name: "owner"'));
  });
  test('_Schema_ takes only @import and @fulltext, and no fields', () => {
    const f = run([s(/$/, '\ntype _Schema_ @entity(immutable: true) {\n  id: ID!\n}\n')]);
    assert.equal(only(f, 'schema-type-directive').file, schemaFile);
    assert.equal(only(f, 'schema-type-fields').file, schemaFile);
  });
  test('a type defined twice', () => void schemaFinding('duplicate-type', s(/$/, '\ntype ApprovalQuery @entity(immutable: true) { id: ID! }\n')));
  test('an aggregation over a missing source', () => {
    const f = run([m('specVersion: 0.0.5', 'specVersion: 1.1.0'), s(/$/, '\ntype Stats @aggregation(intervals: ["hour"], source: "Data") {\n  id: Int8!\n  timestamp: Timestamp!\n}\n')]);
    assert.equal(only(f, 'aggregation-source-missing').file, schemaFile);
  });
});

test('every case above gives exactly the findings in rules.findings.txt', () => {
  check(VIRTUAL_ROOT, 'subgraphs/rules.findings.txt');
});
