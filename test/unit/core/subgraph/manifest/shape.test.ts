/**
 * The tables Chaindeck keeps of the graph CLI's knowledge must match the installed CLI: the
 * manifest shape (its GraphQL SDL), the networks registry, the versions its scaffold writes.
 * These fail when graph-cli is upgraded and the tables are not. Also: key suggestions and docs.
 */
import { Kind, parse, type TypeNode } from 'graphql';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { EVM_NETWORK_ALIASES, EVM_NETWORKS, OTHER_PROTOCOL_NETWORKS } from '../../../../../src/core/subgraph/manifest/networks';
import { describeShape, manifestKeyDoc, manifestKeysAt, namedShapes, shapeAt, type KeySuggestion } from '../../../../../src/core/subgraph/manifest/shape';
import type { Shape } from '../../../../../src/core/subgraph/manifest/shapeKit';
import { GRAPH_TS_FOR } from '../../../../../src/core/subgraph/rules/toolchain';
import { API_VERSIONS, compareVersions, SPEC_VERSIONS } from '../../../../../src/core/subgraph/rules/versions';
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

describe('docs, key completions and the shape under a cursor', () => {
  /**
   * What the manifest shape table (shape.ts) shows the user beyond the shape check: the docs and
   * types of hovers and key completions (manifestKeyDoc, manifestKeysAt), the shape under a cursor
   * path (shapeAt: value completions, whether a `- ` line starts a map item) through lists and
   * union types, and which table a data source or template item gets from its kind. Paths that
   * leave the table, including keys named like Object.prototype members (`constructor:`), give
   * nothing instead of throwing.
   */
  type Path = (string | number)[];

  const filter: Path = ['dataSources', 0, 'mapping', 'blockHandlers', 0, 'filter'];
  const keys = (p: Path, kind?: string) => manifestKeysAt(p, kind).map((k) => k.key);

  /** Every key the completions offer, found by following manifestKeysAt down through maps, lists and unions. */
  function everyKey(kind?: string): { path: string; key: KeySuggestion }[] {
    const out: { path: string; key: KeySuggestion }[] = [];
    const visit = (at: Path) => {
      for (const key of manifestKeysAt(at, kind)) {
        let inner: Path = [...at, key.key];
        out.push({ path: inner.join('.'), key });
        let shape = shapeAt(inner, kind);
        while (shape?.type === 'list') shape = shapeAt((inner = [...inner, 0]), kind);
        if (shape?.type === 'object' || shape?.type === 'union') visit(inner);
      }
    };
    visit([]);
    return out;
  }

  describe('hover and completion docs', () => {
    test('every key of the manifest, Ethereum data sources, templates and file templates has a doc and a type', () => {
      const all = [...everyKey(), ...everyKey('file/ipfs')];
      const paths = new Set(all.map((k) => k.path));
      // The walk reaches the deepest keys of each table, union variants included.
      for (const p of [
        'schema.file',
        'graft.block',
        'indexerHints.prune',
        'dataSources.0.source.endBlock',
        'dataSources.0.mapping.abis.0.file',
        'dataSources.0.mapping.blockHandlers.0.filter.every',
        'dataSources.0.mapping.callHandlers.0.function',
        'dataSources.0.mapping.eventHandlers.0.calls',
        'templates.0.source.abi',
        'templates.0.mapping.handler',
        'templates.0.mapping.abis.0.name',
      ]) {
        assert.ok(paths.has(p), p);
      }
      assert.ok(all.length > 80, String(all.length));
      for (const { path, key } of all) {
        assert.ok(key.doc.trim().length > 10, `doc of ${path}`);
        assert.ok(key.type.trim().length > 0, `type of ${path}`);
      }
    });

    test('every key of a NEAR, Cosmos, Arweave, Substreams or subgraph-composition data source has a doc of its own', () => {
      for (const kind of ['near', 'cosmos', 'arweave', 'substreams', 'subgraph']) {
        const all = everyKey(kind).filter((k) => k.path.startsWith('dataSources.'));
        assert.ok(all.length >= 8, `${kind}: ${all.length} keys`);
        for (const { path, key } of all) {
          assert.ok(key.doc.trim().length > 10, `${kind}: doc of ${path}`);
          assert.ok(key.type.trim().length > 0, `${kind}: type of ${path}`);
        }
      }
    });

    test('the hover of a block filter’s kind explains all three kinds, not only the polling variant’s', () => {
      const kind = manifestKeyDoc([...filter, 'kind'])!;
      assert.equal(kind.required, true);
      assert.equal(kind.type, 'polling | once | call');
      assert.match(kind.doc, /`call`/);
      assert.match(kind.doc, /`once`/);
      assert.match(kind.doc, /`polling`/);
      assert.equal(manifestKeysAt(filter).filter((k) => k.key === 'kind').length, 1);
    });

    test('types read as the user writes them: file path, any value, true or false, integer, string or integer', () => {
      assert.equal(manifestKeyDoc(['schema', 'file'])?.type, 'file path');
      assert.equal(manifestKeyDoc(['dataSources', 0, 'mapping', 'abis', 0, 'file'])?.type, 'file path');
      assert.equal(manifestKeyDoc(['dataSources', 0, 'context'])?.type, 'any value');
      assert.equal(manifestKeyDoc(['dataSources', 0, 'mapping', 'eventHandlers', 0, 'calls'])?.type, 'any value');
      assert.equal(manifestKeyDoc(['dataSources', 0, 'mapping', 'eventHandlers', 0, 'receipt'])?.type, 'true or false');
      assert.equal(manifestKeyDoc(['graft', 'block'])?.type, 'integer');
      assert.equal(manifestKeyDoc(['dataSources', 0, 'mapping', 'eventHandlers', 0, 'topic1'])?.type, 'list of string');
      // A union of scalars lists them; a union of maps keeps its name.
      assert.equal(manifestKeyDoc(['indexerHints', 'prune'])?.type, 'string or integer');
      assert.equal(manifestKeyDoc([...filter])?.type, 'BlockFilterType');
      assert.equal(describeShape(shapeAt(['indexerHints', 'prune'])!), 'string or integer');
    });

    test('a template’s mapping is named by its kind: FileMapping for file templates, ContractMapping otherwise', () => {
      assert.equal(manifestKeyDoc(['templates', 0, 'mapping'], 'file/ipfs')?.type, 'FileMapping');
      assert.equal(manifestKeyDoc(['templates', 0, 'mapping'], 'file/arweave')?.type, 'FileMapping');
      assert.equal(manifestKeyDoc(['templates', 0, 'mapping'])?.type, 'ContractMapping');
      assert.equal(manifestKeyDoc(['templates', 0, 'mapping'])?.doc, 'How the contracts’ events, calls and blocks become entities.');
      assert.equal(manifestKeyDoc(['templates', 0, 'mapping'], 'file/ipfs')?.doc, 'How the file becomes entities.');
    });

    test('a hover on a list item or on the manifest itself has no key doc', () => {
      assert.equal(manifestKeyDoc([]), undefined);
      assert.equal(manifestKeyDoc(['dataSources', 0]), undefined);
      assert.equal(manifestKeyDoc(['dataSources', 0, 'mapping', 'entities', 1]), undefined);
    });
  });

  describe('keys offered at a path', () => {
    test('a path whose value is not a map (a list, a scalar, a union of scalars) offers no keys', () => {
      assert.deepEqual(manifestKeysAt(['dataSources']), []);
      assert.deepEqual(manifestKeysAt(['specVersion']), []);
      assert.deepEqual(manifestKeysAt(['dataSources', 0, 'mapping', 'entities']), []);
      assert.deepEqual(manifestKeysAt(['dataSources', 0, 'mapping', 'blockHandlers', 0, 'filter', 'kind']), []);
      assert.deepEqual(manifestKeysAt(['indexerHints', 'prune']), []);
    });

    test('file data sources are templates only: a dataSources item of kind file/ipfs keeps the Ethereum keys', () => {
      assert.deepEqual(keys(['dataSources', 0], 'file/ipfs'), ['kind', 'name', 'network', 'context', 'source', 'mapping']);
      assert.ok(!keys(['dataSources', 0, 'mapping'], 'file/ipfs').includes('handler'));
      assert.deepEqual(keys(['templates', 0], 'file/ipfs'), ['kind', 'name', 'network', 'context', 'mapping']);
    });

    test('templates exist only for Ethereum: a template of another protocol is offered the Ethereum template keys', () => {
      assert.deepEqual(keys(['templates', 0, 'source'], 'near'), ['abi']);
      assert.ok(keys(['templates', 0, 'mapping'], 'near').includes('eventHandlers'));
      // The same kind on a data source picks that protocol's table.
      assert.ok(keys(['dataSources', 0, 'source'], 'near').includes('account'));
    });
  });

  describe('the shape under a path', () => {
    test('a key of a union type resolves in the variant that has it', () => {
      const kind = shapeAt([...filter, 'kind']);
      assert.equal(kind?.type, 'enum');
      assert.deepEqual(kind?.type === 'enum' ? [...kind.values] : [], ['polling', 'once', 'call']);
      // `every` is only in the polling variant, not in the first one.
      assert.deepEqual(shapeAt([...filter, 'every']), { type: 'BigInt' });
      assert.equal(shapeAt([...filter, 'nope']), undefined);
      assert.equal(shapeAt([...filter, 'nope', 'deeper']), undefined);
    });

    test('a union of scalars has no keys and no items', () => {
      assert.equal(shapeAt(['indexerHints', 'prune', 'auto']), undefined);
      assert.equal(shapeAt(['indexerHints', 'prune', 0]), undefined);
      assert.equal(shapeAt([...filter, 0]), undefined);
    });

    test('an index only steps into a list', () => {
      assert.equal(shapeAt(['schema', 0]), undefined);
      assert.equal(shapeAt(['schema', 0, 'file']), undefined);
      assert.equal(shapeAt(['dataSources', 0, 'source', 1, 'abi']), undefined);
    });

    test('items of lists of strings are strings, only dataSources and templates items are data sources', () => {
      assert.deepEqual(shapeAt(['features', 0]), { type: 'String' });
      assert.deepEqual(shapeAt(['dataSources', 0, 'mapping', 'entities', 2]), { type: 'String' });
      assert.deepEqual(shapeAt(['templates', 0, 'mapping', 'eventHandlers', 0, 'topic1', 0]), { type: 'String' });
      assert.equal(shapeAt(['dataSources', 1])?.type, 'object');
    });
  });

  describe('keys named like Object.prototype members are unknown keys, not a crash', () => {
    test('shapeAt, manifestKeysAt and manifestKeyDoc give nothing under constructor, toString, __proto__', () => {
      for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        assert.equal(shapeAt([name]), undefined, name);
        assert.equal(shapeAt([name, 'x']), undefined, name);
        assert.equal(shapeAt([name, 0, 'x']), undefined, name);
        assert.equal(shapeAt(['dataSources', 0, 'source', name, 'x']), undefined, name);
        assert.equal(shapeAt([...filter, name]), undefined, name);
        assert.equal(shapeAt([...filter, name, 'x']), undefined, name);
        assert.deepEqual(manifestKeysAt([name, 'x']), [], name);
        assert.equal(manifestKeyDoc([name, 'x', 'y']), undefined, name);
        assert.equal(manifestKeyDoc([...filter, name, 'y']), undefined, name);
      }
    });
  });
});
