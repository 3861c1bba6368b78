/**
 * The tables Chaindeck keeps of the graph CLI's knowledge must match the installed CLI: the
 * manifest shape (its GraphQL SDL), the networks registry, the versions its scaffold writes.
 * These fail when graph-cli is upgraded and the tables are not. Also: key suggestions and docs.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Kind, parse, type TypeNode } from 'graphql';
import { manifestKeyDoc, manifestKeysAt, namedShapes, shapeAt } from '../../../../../src/core/subgraph/manifest/shape';
import type { Shape } from '../../../../../src/core/subgraph/manifest/shapeKit';
import { EVM_NETWORK_ALIASES, EVM_NETWORKS, OTHER_PROTOCOL_NETWORKS } from '../../../../../src/core/subgraph/manifest/networks';
import { API_VERSIONS, compareVersions, SPEC_VERSIONS } from '../../../../../src/core/subgraph/rules/versions';
import { GRAPH_TS_FOR } from '../../../../../src/core/subgraph/rules/toolchain';
import { repoPath } from '../../../../support/paths';

const cli = repoPath('node_modules/@graphprotocol/graph-cli');

/** A shape without docs, naming (not expanding) its object, enum and union types. */
type Plain = unknown;

function plain(s: Shape, top = true): Plain {
  if (s.type === 'list') return { list: plain(s.of, false), itemRequired: s.itemRequired };
  if (!top && (s.type === 'object' || s.type === 'enum' || s.type === 'union')) return { ref: s.name };
  if (s.type === 'object') return { object: Object.fromEntries(Object.entries(s.fields).map(([k, f]) => [k, { required: f.required, shape: plain(f.shape, false) }])) };
  if (s.type === 'enum') return { enum: [...s.values] };
  if (s.type === 'union') return { union: s.of.map((o) => plain(o, false)) };
  return s.type;
}

const SCALARS = new Set(['String', 'BigInt', 'Boolean', 'File', 'JSON']);

function plainSdlType(t: TypeNode, unions: Set<string>, enums: Set<string>): { required: boolean; shape: Plain } {
  if (t.kind === Kind.NON_NULL_TYPE) return { ...plainSdlType(t.type, unions, enums), required: true };
  if (t.kind === Kind.LIST_TYPE) {
    const inner = plainSdlType(t.type, unions, enums);
    return { required: false, shape: { list: inner.shape, itemRequired: inner.required } };
  }
  const name = t.name.value;
  return { required: false, shape: SCALARS.has(name) ? name : { ref: name } };
}

describe('tables against the installed graph-cli', () => {
  test('the manifest shape equals graph-cli’s SDL for Ethereum manifests', () => {
    const sdl = parse(fs.readFileSync(path.join(cli, 'dist/protocols/ethereum/manifest.graphql'), 'utf8'));
    const unions = new Set<string>();
    const enums = new Set<string>();
    const fromSdl = new Map<string, Plain>();
    for (const def of sdl.definitions) {
      if (def.kind === Kind.ENUM_TYPE_DEFINITION) {
        enums.add(def.name.value);
        fromSdl.set(def.name.value, { enum: (def.values ?? []).map((v) => v.name.value) });
      } else if (def.kind === Kind.UNION_TYPE_DEFINITION) {
        unions.add(def.name.value);
        fromSdl.set(def.name.value, { union: (def.types ?? []).map((t) => (SCALARS.has(t.name.value) ? t.name.value : { ref: t.name.value })) });
      }
    }
    for (const def of sdl.definitions) {
      if (def.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
      fromSdl.set(def.name.value, { object: Object.fromEntries((def.fields ?? []).map((f) => [f.name.value, plainSdlType(f.type, unions, enums)])) });
    }
    const ours = new Map([...namedShapes()].filter(([name]) => !name.startsWith('File')).map(([name, s]) => [name, plain(s)]));
    assert.deepEqual([...ours.keys()].sort(), [...fromSdl.keys()].sort());
    for (const [name, shape] of fromSdl) assert.deepEqual(ours.get(name), shape, `type ${name}`);
  });

  test('the EVM networks, and each alias with the network it names, equal the registry graph-cli ships', () => {
    const registry = JSON.parse(fs.readFileSync(path.join(cli, 'config/TheGraphNetworksRegistry.json'), 'utf8')) as {
      networks: { id: string; aliases?: string[]; graphNode?: { protocol: string } }[];
    };
    const evm = registry.networks.filter((n) => n.graphNode?.protocol === 'ethereum');
    assert.deepEqual([...EVM_NETWORKS].sort(), evm.map((n) => n.id).sort());
    assert.deepEqual(Object.entries(EVM_NETWORK_ALIASES).sort(), evm.flatMap((n) => (n.aliases ?? []).map((alias) => [alias, n.id])).sort());
    const others = registry.networks.filter((n) => n.graphNode && n.graphNode.protocol !== 'ethereum');
    assert.deepEqual(OTHER_PROTOCOL_NETWORKS, Object.fromEntries(others.map((n) => [n.id, n.graphNode!.protocol]).sort()));
  });

  test('the newest versions are the ones `graph init` writes, and codegen’s minimum apiVersion is ours', () => {
    const scaffold = fs.readFileSync(path.join(cli, 'dist/scaffold/index.js'), 'utf8');
    const mapping = fs.readFileSync(path.join(cli, 'dist/protocols/ethereum/scaffold/manifest.js'), 'utf8');
    const codegen = fs.readFileSync(path.join(cli, 'dist/commands/codegen.js'), 'utf8');
    assert.equal(/specVersion: ([\d.]+)/.exec(scaffold)?.[1], SPEC_VERSIONS[SPEC_VERSIONS.length - 1]);
    assert.equal(/apiVersion: ([\d.]+)/.exec(mapping)?.[1], API_VERSIONS[API_VERSIONS.length - 1]);
    assert.equal(/assertManifestApiVersion\(manifest, '([\d.]+)'\)/.exec(codegen)?.[1], API_VERSIONS[0]);
  });

  test('the installed graph-ts is new enough for everything graph-cli generates', () => {
    const { version } = JSON.parse(fs.readFileSync(repoPath('node_modules/@graphprotocol/graph-ts/package.json'), 'utf8')) as { version: string };
    for (const floor of Object.values(GRAPH_TS_FOR)) assert.ok(compareVersions(version, floor) >= 0, floor);
  });
});

describe('key suggestions and docs', () => {
  const keys = (p: (string | number)[], kind?: string) => manifestKeysAt(p, kind).map((k) => k.key);
  test('top level', () => assert.deepEqual(keys([]), ['specVersion', 'features', 'schema', 'description', 'repository', 'graft', 'dataSources', 'templates', 'indexerHints']));
  test('a data source, its source and mapping', () => {
    assert.deepEqual(keys(['dataSources', 0]), ['kind', 'name', 'network', 'context', 'source', 'mapping']);
    assert.deepEqual(keys(['dataSources', 3, 'source']), ['address', 'abi', 'startBlock', 'endBlock']);
    assert.ok(keys(['dataSources', 0, 'mapping']).includes('eventHandlers'));
    assert.deepEqual(keys(['templates', 0, 'source']), ['abi']);
  });
  test('handlers, filters (a union: the keys of every variant)', () => {
    assert.deepEqual(keys(['dataSources', 0, 'mapping', 'eventHandlers', 0]), ['event', 'topic0', 'topic1', 'topic2', 'topic3', 'handler', 'receipt', 'calls']);
    assert.deepEqual(keys(['dataSources', 0, 'mapping', 'blockHandlers', 0, 'filter']), ['kind', 'every']);
  });
  test('file templates have their own mapping keys', () => assert.ok(keys(['templates', 0, 'mapping'], 'file/ipfs').includes('handler')));
  test('required flags, types and docs', () => {
    const address = manifestKeysAt(['dataSources', 0, 'source']).find((k) => k.key === 'address')!;
    assert.equal(address.required, false);
    assert.equal(address.type, 'string');
    assert.match(address.doc, /proxy/);
    assert.equal(manifestKeyDoc(['dataSources', 0, 'source', 'startBlock'])?.type, 'integer');
    assert.equal(manifestKeyDoc(['dataSources', 0, 'mapping', 'blockHandlers', 0, 'filter', 'kind'])?.type, 'polling | once | call');
    assert.equal(manifestKeyDoc(['dataSources', 0, 'mapping', 'abis'])?.type, 'list of ContractAbi');
  });
  test('paths outside the shape give nothing', () => {
    assert.deepEqual(keys(['nope']), []);
    assert.deepEqual(keys(['dataSources', 'x']), []);
    assert.equal(shapeAt(['dataSources', 0, 'source', 'address', 'deeper']), undefined);
  });
});
