/**
 * Following a parsed manifest to what it names: values at key paths, the data source around a
 * path, its ABI, its mapping's exports and the schema (what completions and hovers read).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationCache } from '../../../../../src/core/subgraph/rules/context';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import { nodeAt, pattern, stringAt, Subgraph } from '../../../../../src/core/subgraph/lookup/lookup';
import { parseManifest } from '../../../../../src/core/subgraph/manifest/manifestDoc';

const MANIFEST = `specVersion: 1.0.0
schema:
  file: ./schema.graphql
dataSources:
  - kind: ethereum
    name: Token
    source:
      abi: ERC20
    mapping:
      file: ./src/mapping.ts
      abis:
        - name: ERC20
          file: ./abis/ERC20.json
        - name: Missing
          file: ./abis/Missing.json
`;
const FILES = {
  '/p/schema.graphql': 'type Transfer @entity(immutable: true) { id: Bytes! }\n',
  '/p/src/mapping.ts': 'export function handleTransfer(): void {}\nexport function handleApproval(): void {}\n',
  '/p/abis/ERC20.json': JSON.stringify([{ type: 'event', name: 'Transfer', inputs: [], anonymous: false }]),
};
const doc = parseManifest(MANIFEST);
const subgraph = new Subgraph('/p/subgraph.yaml', doc, memoryFileSource(FILES), new ValidationCache());
const ds = ['dataSources', 0] as const;

describe('manifest lookups', () => {
  test('values at key paths: a scalar string, a node only when the whole path matches', () => {
    assert.equal(stringAt(doc, ['dataSources', 0, 'name']), 'Token');
    assert.equal(stringAt(doc, ['dataSources', 0, 'mapping']), undefined);
    assert.equal(nodeAt(doc, ['dataSources', 0, 'nope', 'deeper']), undefined);
    assert.equal(nodeAt(undefined, ['schema']), undefined);
    assert.equal(nodeAt(doc, ['dataSources', 0, 'mapping', 'abis'])?.kind, 'seq');
  });

  test('a key path as a pattern: indexes become *', () => {
    assert.equal(pattern(['dataSources', 0, 'mapping', 'entities', 2]), 'dataSources.*.mapping.entities.*');
  });

  test('the data source around a path, its kind, and files resolved beside the manifest', () => {
    assert.deepEqual(subgraph.dataSource(['dataSources', 0, 'mapping', 'file']), ['dataSources', 0]);
    assert.deepEqual(subgraph.dataSource(['templates', 1]), ['templates', 1]);
    assert.equal(subgraph.dataSource(['schema', 'file']), undefined);
    assert.equal(subgraph.kind(['dataSources', 0, 'name']), 'ethereum');
    assert.equal(subgraph.resolve('./abis/ERC20.json'), '/p/abis/ERC20.json');
  });

  test("ABIs by name: the source's by default, parsed; a missing file says so by its written name", () => {
    assert.deepEqual(subgraph.abiNames([...ds]), ['ERC20', 'Missing']);
    const abi = subgraph.abi([...ds]);
    assert.equal(abi?.name, 'ERC20');
    assert.equal(abi?.file, './abis/ERC20.json');
    assert.ok(abi?.abi);
    assert.deepEqual(subgraph.abi([...ds], 'Missing'), { name: 'Missing', file: './abis/Missing.json', error: './abis/Missing.json does not exist' });
    assert.equal(subgraph.abi([...ds], 'Unknown'), undefined);
  });

  test("the mapping's exports, sorted, and the schema with its analysis", () => {
    assert.deepEqual(subgraph.exports([...ds]), ['handleApproval', 'handleTransfer']);
    const schema = subgraph.schema();
    assert.equal(schema?.file, '/p/schema.graphql');
    assert.equal(schema?.text, FILES['/p/schema.graphql']);
    assert.ok(schema?.info);
  });
});
