/**
 * The shape pass (checkShape.ts) at the edges its other tests left open, through validateSubgraph
 * on the tutorial subgraph with small edits, in memory: which data source kinds get their keys
 * checked, where a missing root key points, what a value's type reads as in messages (null,
 * boolean), enum values, JSON values, empty list items, union variants on a tie, quoted and
 * unquoted numbers, the value rules kept for non-Ethereum data sources, unreadable files.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import type { FileSource, Finding } from '../../../../../src/core/subgraph/types';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import { FileReadError } from '../../../../../src/core/files';
import { tutorialFiles, virtualProject, VIRTUAL_MANIFEST, VIRTUAL_ROOT, type Files } from '../../../../fixtures/subgraphs/corpus';

/** Replaces `from` by `to` in subgraph.yaml; `from` must occur. */
function edit(files: Files, from: string, to: string): void {
  const after = files['subgraph.yaml'].replace(from, to);
  assert.notEqual(after, files['subgraph.yaml'], `test edit does not apply: ${from}`);
  files['subgraph.yaml'] = after;
}

function findings(files: Files, wrap: (source: FileSource) => FileSource = (s) => s): Finding[] {
  const p = virtualProject(files);
  return validateSubgraph(VIRTUAL_MANIFEST, wrap(memoryFileSource(p.files, p.mtimes))).findings;
}

/** The tutorial subgraph with each [from, to] applied to its manifest. */
function run(...edits: [string, string][]): Finding[] {
  const files = tutorialFiles();
  for (const [from, to] of edits) edit(files, from, to);
  return findings(files);
}

/** The tutorial's files with subgraph.yaml replaced by `manifest`. */
function runManifest(manifest: string): Finding[] {
  return findings({ ...tutorialFiles(), 'subgraph.yaml': manifest });
}

/** code, 0-based range and message of each finding. */
const brief = (list: Finding[]) => list.map((f) => `${f.code} ${f.range.start.line}:${f.range.start.character}-${f.range.end.line}:${f.range.end.character} ${f.message}`);
const codes = (list: Finding[]) => list.map((f) => f.code);
const fixText = (f: Finding) => f.fix?.edits.map((e) => e.text);

const MAPPING = '    mapping:\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      file: ./src/mapping.ts\n      entities:\n        - ApprovalQuery\n';

describe('which data sources and templates get their keys checked', () => {
  test('a data source of kind ethereum/contract is checked like kind ethereum: an unknown key is reported', () => {
    assert.deepEqual(brief(run(['  - kind: ethereum\n', '  - kind: ethereum/contract\n    foo: 1\n'])), ["unknown-key 6:4-6:7 Unexpected key 'foo' in dataSources[0]"]);
  });

  test('a data source with an empty kind still has its events checked against the ABI', () => {
    const list = run(['  - kind: ethereum\n', '  - kind:\n'], ['Approval(indexed', 'Approvalx(indexed']);
    assert.deepEqual(codes(list), ['missing-value', 'event-not-in-abi']);
    assert.equal(brief(list)[0], 'missing-value 5:4-5:8 No value provided for dataSources[0].kind');
  });

  test('file/ipfs and file/arweave templates are checked with the file template shape', () => {
    const template = (kind: string, extra: string) => `  - kind: ${kind}\n    name: ${kind.slice(5)}\n    ${extra}: 1\n${MAPPING}      handler: handleApproval\n`;
    const list = runManifest(`specVersion: 0.0.7\nschema:\n  file: ./schema.graphql\ndataSources: []\ntemplates:\n${template('file/ipfs', 'foo')}${template('file/arweave', 'bar')}`);
    assert.deepEqual(brief(list.filter((f) => f.code === 'unknown-key')), [
      "unknown-key 7:4-7:7 Unexpected key 'foo' in templates[0]",
      "unknown-key 17:4-17:7 Unexpected key 'bar' in templates[1]",
    ]);
  });

  test('a data source (not a template) of kind file/ipfs: only its kind is reported, its keys are not checked', () => {
    assert.deepEqual(brief(run(['  - kind: ethereum\n', '  - kind: file/ipfs\n    foo: 1\n'])), [
      "unknown-kind 5:10-5:19 Unknown data source kind 'file/ipfs'; expected ethereum or ethereum/contract",
    ]);
  });

  test('a template of an unknown kind: only its kind is reported, with the kinds a template may have', () => {
    const list = run(['      file: ./src/mapping.ts', '      file: ./src/mapping.ts\ntemplates:\n  - kind: fooo\n    name: T\n    foo: 1']);
    assert.deepEqual(brief(list), ["unknown-kind 26:10-26:14 Unknown data source kind 'fooo'; expected ethereum or ethereum/contract or file/ipfs or file/arweave"]);
  });

  test('a near data source keeps the value rules that are not Ethereum-only (startBlock)', () => {
    const manifest = `specVersion: 1.0.0\nschema:\n  file: ./schema.graphql\ndataSources:\n  - kind: near\n    name: Near\n    network: near-mainnet\n    source:\n      account: app.good-morning.near\n      startBlock: -5\n${MAPPING}      blockHandlers:\n        - handler: handleApproval\n`;
    assert.deepEqual(brief(runManifest(manifest)), ['invalid-block-number 9:18-9:20 dataSources[0].source.startBlock must be a block number between 0 and 2147483647, not -5']);
  });
});

describe('the manifest root', () => {
  test('a missing top-level key points at the first key of the manifest', () => {
    const list = run(['schema:\n  file: ./schema.graphql\n', '']);
    assert.deepEqual(brief(list), ["missing-key 0:0-0:11 Missing required key 'schema' in the manifest"]);
  });

  test('an empty map as the manifest: each required key missing, at its start', () => {
    assert.deepEqual(brief(runManifest('{}\n')), [
      "missing-key 0:0-0:0 Missing required key 'specVersion' in the manifest",
      "missing-key 0:0-0:0 Missing required key 'schema' in the manifest",
      "missing-key 0:0-0:0 Missing required key 'dataSources' in the manifest",
    ]);
  });

  test('a null manifest reads as found null', () => {
    assert.deepEqual(brief(runManifest('~\n')), ['type-mismatch 0:0-0:1 Expected map, found null ~ (the manifest)']);
  });
});

describe('types in messages, as graph-cli names them', () => {
  test('a boolean where a string belongs reads as found boolean', () => {
    assert.deepEqual(brief(run(['    name: ERC20', '    name: true'])), ['type-mismatch 6:10-6:14 Expected string, found boolean true (dataSources[0].name)']);
  });

  test('a quoted number where a map belongs is a plain type mismatch, not the BigInt quote advice', () => {
    assert.deepEqual(brief(run(['schema:\n  file: ./schema.graphql\n', 'schema: "123"\n'])), ['type-mismatch 2:8-2:13 Expected map, found string "123" (schema)']);
  });

  test('an unquoted 0x… value under a key other than address is a type mismatch (unquoted-address is for addresses)', () => {
    const [f, ...rest] = run(['      abi: ERC20', '      abi: 0xdead']);
    assert.deepEqual(
      rest.filter((x) => x.range.start.line === 10),
      [],
    );
    assert.equal(f.code, 'type-mismatch');
    assert.equal(f.message, 'Expected string, found number 0xdead: YAML reads an unquoted 0x… value as a number; put it in quotes');
    assert.deepEqual(fixText(f), ['"0xdead"']);
  });
});

describe('BigInt values', () => {
  test('a quoted whole number: one finding, with the advice to drop the quotes (the block number rule does not run on it)', () => {
    const list = run(['startBlock: 6082465', 'startBlock: "12"']);
    assert.deepEqual(brief(list), ["type-mismatch 11:18-11:22 Expected BigInt, found string '12': write the number without quotes"]);
    assert.deepEqual(fixText(list[0]), ['12']);
  });

  test('a quoted string that only starts or only ends with digits is a plain type mismatch', () => {
    assert.deepEqual(brief(run(['startBlock: 6082465', 'startBlock: "x1"'])), ['type-mismatch 11:18-11:22 Expected BigInt, found string "x1" (dataSources[0].source.startBlock)']);
    assert.deepEqual(brief(run(['startBlock: 6082465', 'startBlock: "1x"'])), ['type-mismatch 11:18-11:22 Expected BigInt, found string "1x" (dataSources[0].source.startBlock)']);
  });

  test('a polling filter’s quoted every: the type mismatch only, not also an invalid block number', () => {
    const list = run(
      ['0.0.5', '0.0.8'],
      [
        '      file: ./src/mapping.ts',
        '      file: ./src/mapping.ts\n      blockHandlers:\n        - handler: handleApproval\n          filter:\n            kind: polling\n            every: "12"',
      ],
    );
    assert.deepEqual(brief(list.filter((f) => f.range.start.line === 29)), ["type-mismatch 29:19-29:23 Expected BigInt, found string '12': write the number without quotes"]);
  });
});

describe('enums, JSON and unions', () => {
  const blockHandler = (filter: string) =>
    ['      file: ./src/mapping.ts', `      file: ./src/mapping.ts\n      blockHandlers:\n        - handler: handleApproval\n          filter:\n${filter}`] as [string, string];

  test('a block filter kind outside the enum is reported with the allowed values and the closest one as fix', () => {
    const list = run(['0.0.5', '0.0.8'], blockHandler('            kind: pollin'));
    const enums = list.filter((f) => f.code === 'invalid-enum');
    assert.deepEqual(brief(enums), ["invalid-enum 28:18-28:24 Unexpected value 'pollin' for dataSources[0].mapping.blockHandlers[0].filter.kind; allowed values: polling, once, call"]);
    assert.deepEqual(fixText(enums[0]), ['polling']);
  });

  test('a map under context (JSON) is accepted as it is', () => {
    assert.deepEqual(brief(run(['    network: mainnet\n', '    network: mainnet\n    context:\n      foo:\n        type: String\n        data: bar\n'])), []);
  });

  test('a union value no variant accepts: on a tie, the first variant’s finding (graph-cli’s minBy keeps the first)', () => {
    const prune = (value: string) => run(['0.0.5', '1.0.0'], ['schema:', `indexerHints:\n  prune: ${value}\nschema:`]);
    assert.deepEqual(brief(prune('true')), ['type-mismatch 3:9-3:13 Expected string, found boolean true (indexerHints.prune)']);
    assert.deepEqual(brief(prune('[1]')), ['type-mismatch 3:9-3:12 Expected string, found list (indexerHints.prune)']);
  });
});

describe('list items', () => {
  test('an empty required item (`-` alone) is reported on its whole line; an explicit null (`- ~`) on the value', () => {
    const list = run(['        - ApprovalQuery\n', '        - ApprovalQuery\n        -\n        - ~\n']);
    assert.deepEqual(brief(list), [
      'missing-value 18:0-18:9 No value provided for dataSources[0].mapping.entities[1]',
      'missing-value 19:10-19:11 No value provided for dataSources[0].mapping.entities[2]',
    ]);
    assert.deepEqual(
      list.map((f) => f.severity),
      ['error', 'error'],
    );
  });

  test('empty items of a list whose items may be null (topic1) are accepted', () => {
    assert.deepEqual(brief(run(['0.0.5', '1.2.0'], ['          handler: handleApproval\n', '          handler: handleApproval\n          topic1:\n            -\n            - ~\n'])), []);
  });
});

describe('files', () => {
  test('a named file that cannot be read is reported with the reason, naming the file as written', () => {
    const abi = path.join(VIRTUAL_ROOT, 'abis', 'ERC20.json');
    const list = findings(tutorialFiles(), (source) => ({
      ...source,
      read: (file) => {
        if (file === abi) throw new FileReadError('directory', file, `${file} is a folder, not a file`);
        return source.read(file);
      },
    }));
    const fileFindings = list.filter((f) => f.code.startsWith('file-'));
    assert.deepEqual(brief(fileFindings), ['file-directory 20:16-20:33 File cannot be read: ./abis/ERC20.json is a folder, not a file']);
    assert.equal(fileFindings[0].severity, 'error');
  });
});

describe('what a second measurement left (its first run counted these as timeouts)', () => {
  test('a number where a string or a file path is wanted: quote it; where a map is wanted: the plain mismatch', () => {
    const network = run(['network: mainnet', 'network: 1']).filter((f) => f.code === 'type-mismatch');
    assert.deepEqual(brief(network), ['type-mismatch 7:13-7:14 Expected string, found number 1: YAML reads it as a number; put it in quotes']);
    assert.deepEqual(fixText(network[0]), ['"1"']);
    const file = run(['file: ./src/mapping.ts', 'file: 5']).filter((f) => f.code === 'type-mismatch');
    assert.deepEqual(brief(file), ['type-mismatch 24:12-24:13 Expected string, found number 5: YAML reads it as a number; put it in quotes']);
    const source = run(['    source:\n      address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"\n      abi: ERC20\n      startBlock: 6082465\n', '    source: 5\n']).filter(
      (f) => f.code === 'type-mismatch',
    );
    assert.deepEqual(brief(source), ['type-mismatch 8:12-8:13 Expected map, found number 5 (dataSources[0].source)']);
  });

  test('the kind is read from the `kind` key wherever it stands in the data source', () => {
    const f = run(['  - kind: ethereum\n    name: ERC20\n', '  - name: ERC20\n    kind: ethereum\n    colour: red\n']);
    assert.deepEqual(codes(f.filter((x) => x.code === 'unknown-key')), ['unknown-key']);
  });

  test('an optional key left empty is no missing value', () => {
    assert.deepEqual(codes(run(['description: ERC-20 allowance approvals, the tutorial subgraph of the service spec', 'description:'])), []);
  });
});

test('a call filter with an every that is no number: every without polling, and its type', () => {
  const handler = [
    '      file: ./src/mapping.ts',
    '      file: ./src/mapping.ts\n      blockHandlers:\n        - handler: handleApproval\n          filter:\n            kind: call\n            every: x',
  ] as [string, string];
  const f = run(['0.0.5', '0.0.8'], handler).filter((x) => x.code !== 'handler-not-exported');
  assert.deepEqual(codes(f), ['every-without-polling', 'type-mismatch']);
});
