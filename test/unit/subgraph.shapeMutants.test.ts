/**
 * What the manifest shape table (shape.ts) shows the user beyond the shape check: the docs and
 * types of hovers and key completions (manifestKeyDoc, manifestKeysAt), the shape under a cursor
 * path (shapeAt: value completions, whether a `- ` line starts a map item) through lists and
 * union types, and which table a data source or template item gets from its kind. Paths that
 * leave the table, including keys named like Object.prototype members (`constructor:`), give
 * nothing instead of throwing.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeShape, manifestKeyDoc, manifestKeysAt, shapeAt, type KeySuggestion } from '../../src/core/subgraph/manifest/shape';

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
