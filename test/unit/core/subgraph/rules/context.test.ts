/**
 * The validation Context and cache on their own: schema results keyed by file and text, a
 * compiled mapping that cannot be read, and the graph-ts and graph-cli versions found from the
 * manifest's folder up (node_modules as Node resolves them, else package.json's ranges).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { memoryFileSource, nodeFileSource } from '../../../../../src/core/subgraph/fileSource';
import { Context, ValidationCache } from '../../../../../src/core/subgraph/rules/context';
import { parseManifest } from '../../../../../src/core/subgraph/manifest/manifestDoc';
import type { FileSource } from '../../../../../src/core/subgraph/types';

const ROOT = path.resolve(path.sep, 'ws');
const SUB = path.join(ROOT, 'packages', 'subgraph');
const MANIFEST = path.join(SUB, 'subgraph.yaml');

const context = (files: FileSource, manifest = MANIFEST) => new Context(manifest, parseManifest('specVersion: 1.0.0\n'), files, new ValidationCache());
const graphTs = (dir: string, version: string): Record<string, string> => ({
  [path.join(dir, 'node_modules', '@graphprotocol', 'graph-ts', 'package.json')]: JSON.stringify({ name: '@graphprotocol/graph-ts', version }),
});
const pkg = (dir: string, json: unknown): Record<string, string> => ({
  [path.join(dir, 'package.json')]: JSON.stringify(json),
});
const cliOf = (files: Record<string, string>) => context(memoryFileSource(files)).graphCliVersion();

describe('ValidationCache.schema: keyed by file and text', () => {
  const E = '@entity(immutable: true)';

  test('a changed schema is analyzed again, the same one is not', () => {
    const cache = new ValidationCache();
    const first = cache.schema('/p/schema.graphql', `type A ${E} { id: ID! }`);
    const changed = cache.schema('/p/schema.graphql', `type B ${E} { id: ID! }`);
    assert.deepEqual([...first.entities.keys()], ['A']);
    assert.deepEqual([...changed.entities.keys()], ['B']);
    assert.equal(cache.schema('/p/schema.graphql', `type A ${E} { id: ID! }`), first);
  });

  test('the same text in another file gives findings in that file', () => {
    const cache = new ValidationCache();
    const text = 'type A { id: ID! }';
    assert.equal(cache.schema('/p/a.graphql', text).findings[0].file, '/p/a.graphql');
    assert.equal(cache.schema('/p/b.graphql', text).findings[0].file, '/p/b.graphql');
  });
});

describe('wasmExportsOf: an unreadable .wasm', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-context-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('a folder in place of the .wasm: no exports, and the problem is kept', () => {
    const wasm = path.join(tmp, 'build', 'mapping.wasm');
    fs.mkdirSync(wasm, { recursive: true });
    const ctx = context(nodeFileSource(), path.join(tmp, 'subgraph.yaml'));
    assert.equal(ctx.wasmExportsOf(wasm), undefined);
    assert.equal(ctx.problemOf(wasm)?.kind, 'directory');
    assert.deepEqual(
      ctx.fileProblems().map((p) => p.file),
      [wasm],
    );
  });

  test('a read refused by the system: the problem names the file', () => {
    const file = path.join(SUB, 'build', 'mapping.wasm');
    const denied: FileSource = {
      ...memoryFileSource({}),
      readBytes: () => {
        throw Object.assign(new Error('EACCES: permission denied'), {
          code: 'EACCES',
        });
      },
    };
    const ctx = context(denied);
    assert.equal(ctx.wasmExportsOf(file), undefined);
    assert.equal(ctx.problemOf(file)?.kind, 'permission');
  });

  test('a missing .wasm is no problem', () => {
    const ctx = context(memoryFileSource({}));
    assert.equal(ctx.wasmExportsOf(path.join(SUB, 'build', 'mapping.wasm')), undefined);
    assert.deepEqual(ctx.fileProblems(), []);
  });
});

describe('graphTsVersion: the nearest node_modules from the manifest up', () => {
  test("in a parent folder's node_modules (a workspace root)", () => {
    assert.equal(context(memoryFileSource(graphTs(ROOT, '0.35.1'))).graphTsVersion(), '0.35.1');
  });

  test('the nearest one wins', () => {
    assert.equal(
      context(
        memoryFileSource({
          ...graphTs(ROOT, '0.35.1'),
          ...graphTs(SUB, '0.30.0'),
        }),
      ).graphTsVersion(),
      '0.30.0',
    );
  });

  test('installed nowhere: undefined', () => {
    assert.equal(context(memoryFileSource({})).graphTsVersion(), undefined);
  });
});

describe("graphCliVersion: package.json's range when not installed", () => {
  const CLI = '@graphprotocol/graph-cli';

  test('in dependencies, or in devDependencies only', () => {
    assert.deepEqual(cliOf(pkg(SUB, { dependencies: { [CLI]: '0.97.0' } })), {
      range: '0.97.0',
    });
    assert.deepEqual(cliOf(pkg(SUB, { devDependencies: { [CLI]: '^0.98.1' } })), { range: '^0.98.1' });
  });

  test('"dependencies": null does not throw; devDependencies still count', () => {
    assert.deepEqual(cliOf(pkg(SUB, { dependencies: null, devDependencies: { [CLI]: '0.96.0' } })), { range: '0.96.0' });
  });

  test('the nearest package.json naming graph-cli wins over a parent one', () => {
    assert.deepEqual(
      cliOf({
        ...pkg(SUB, { devDependencies: { [CLI]: '0.98.0' } }),
        ...pkg(ROOT, { devDependencies: { [CLI]: '0.50.0' } }),
      }),
      { range: '0.98.0' },
    );
    assert.deepEqual(
      cliOf({
        ...pkg(SUB, { name: 'subgraph' }),
        ...pkg(ROOT, { devDependencies: { [CLI]: '0.50.0' } }),
      }),
      { range: '0.50.0' },
    );
  });

  test('an entry that is no string is skipped', () => {
    assert.deepEqual(
      cliOf(
        pkg(SUB, {
          dependencies: { [CLI]: 97 },
          devDependencies: { [CLI]: '0.97.0' },
        }),
      ),
      { range: '0.97.0' },
    );
    assert.deepEqual(
      cliOf({
        ...pkg(SUB, { dependencies: { [CLI]: { version: '1' } } }),
        ...pkg(ROOT, { dependencies: { [CLI]: '0.90.0' } }),
      }),
      { range: '0.90.0' },
    );
  });
});
