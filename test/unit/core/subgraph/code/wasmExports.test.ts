/**
 * Compiled manifests (graph build's output) name the .wasm as the mapping file: handlers are
 * checked against the module's export section. The oracle for the parser is the WebAssembly
 * engine itself (WebAssembly.Module.exports), on modules assembled here byte by byte.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { wasmFunctionExports } from '../../../../../src/core/subgraph/code/wasmExports';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import { tutorialFiles, VIRTUAL_MANIFEST, VIRTUAL_ROOT, virtualProject } from '../../../../fixtures/subgraphs/corpus';

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
const name = (s: string) => [...leb(Buffer.byteLength(s)), ...Buffer.from(s)];

/** A module with `n` functions `() -> ()`, exporting each under the given names, plus a memory. */
function module(names: string[]): Uint8Array<ArrayBuffer> {
  const n = names.length;
  const bytes = [
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [0x01, 0x60, 0x00, 0x00]),
    ...section(3, [...leb(n), ...names.map(() => 0x00)]),
    ...section(5, [0x01, 0x00, 0x01]),
    ...section(7, [...leb(n + 1), ...name('memory'), 0x02, 0x00, ...names.flatMap((s, i) => [...name(s), 0x00, ...leb(i)])]),
    ...section(10, [...leb(n), ...names.flatMap(() => [0x02, 0x00, 0x0b])]),
  ];
  return Uint8Array.from(bytes);
}

describe('wasm export section', () => {
  test('the function exports, as the WebAssembly engine sees them', () => {
    for (const names of [[], ['handleApproval'], ['handleApproval', 'handleTransfer', 'héllo', 'x'.repeat(200)]]) {
      const bytes = module(names);
      const engine = WebAssembly.Module.exports(new WebAssembly.Module(bytes))
        .filter((e) => e.kind === 'function')
        .map((e) => e.name);
      assert.deepEqual([...wasmFunctionExports(bytes)!].sort(), engine.sort());
    }
  });
  test('truncated, lying or foreign bytes give undefined, never a throw', () => {
    const good = module(['handleApproval', 'handleTransfer']);
    for (let cut = 0; cut < good.length; cut++) {
      const r = wasmFunctionExports(good.subarray(0, cut));
      // A cut between sections leaves a valid prefix (no export section yet: nothing exported).
      if (r !== undefined) assert.ok(r.size === 0 || r.size === 2);
    }
    assert.equal(wasmFunctionExports(Buffer.from('not a wasm module at all')), undefined);
    // An export count of four billion in a section of a few bytes.
    assert.equal(wasmFunctionExports(Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 7, 6, 0xff, 0xff, 0xff, 0xff, 0x0f, 0])), undefined);
    // A section size far beyond the file.
    assert.equal(wasmFunctionExports(Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 7, 0xff, 0xff, 0xff, 0xff, 0x0f])), undefined);
    // A LEB128 longer than 5 bytes.
    assert.equal(wasmFunctionExports(Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 7, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0])), undefined);
  });
});

describe('a compiled manifest (build/subgraph.yaml naming the .wasm)', () => {
  const wasmFile = path.join(VIRTUAL_ROOT, 'ERC20', 'ERC20.wasm');
  const run = (exports: string[] | undefined) => {
    const files = tutorialFiles();
    files['subgraph.yaml'] = files['subgraph.yaml'].replace('file: ./src/mapping.ts', 'file: ERC20/ERC20.wasm');
    delete files['src/mapping.ts'];
    files['ERC20/ERC20.wasm'] = 'binary';
    const p = virtualProject(files);
    return validateSubgraph(VIRTUAL_MANIFEST, memoryFileSource(p.files, p.mtimes, exports ? { [wasmFile]: module(exports) } : {})).findings;
  };
  test('handlers among the exports: no finding (the old scan flagged every one)', () =>
    assert.deepEqual(
      run(['handleApproval']).map((f) => `${f.code}: ${f.message}`),
      [],
    ));
  test('a handler missing from the exports: an error, without a source stub as fix', () => {
    const f = run(['handleTransfer']).filter((x) => x.code === 'handler-not-exported');
    assert.equal(f.length, 1);
    assert.equal(f[0].severity, 'error');
    assert.notEqual(f[0].fix?.kind, 'add-handler');
  });
  test('a file source that cannot read bytes: not checked rather than guessed', () =>
    assert.deepEqual(
      run(undefined).map((f) => f.code),
      [],
    ));
});

describe('wasm export section: the edges of the reader', () => {
  const HEAD = [0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0];
  const exports = (...body: number[]) => wasmFunctionExports(Uint8Array.from([...HEAD, ...body]));

  test('the header alone exports nothing; one byte less, or another magic, is no module', () => {
    assert.deepEqual(exports(), new Set());
    assert.equal(wasmFunctionExports(Uint8Array.from(HEAD.slice(0, 7))), undefined);
    assert.equal(wasmFunctionExports(Uint8Array.from([0x00, 0x61, 0x73, 0x6e, 1, 0, 0, 0])), undefined);
  });

  test('an export takes at least 3 bytes: a count of exactly that many fits', () => {
    assert.deepEqual(exports(7, 4, 1, 0, 0x00, 0), new Set(['']));
    assert.equal(exports(7, 4, 2, 0, 0x00, 0), undefined, 'two exports cannot fit in 3 bytes');
  });

  test('LEB128 indexes up to 32 bits; beyond, or longer than 5 bytes, is no module', () => {
    assert.deepEqual(exports(7, 9, 1, 1, 0x61, 0x00, 0xff, 0xff, 0xff, 0xff, 0x0f), new Set(['a']));
    assert.equal(exports(7, 9, 1, 1, 0x61, 0x00, 0xff, 0xff, 0xff, 0xff, 0x1f), undefined);
    assert.equal(exports(7, 10, 1, 1, 0x61, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00), undefined);
  });

  test('names must be UTF-8; only function exports count; sections before the export section are skipped', () => {
    assert.equal(exports(7, 5, 1, 1, 0xff, 0x00, 0), undefined);
    assert.deepEqual(exports(0, 3, 1, 0x78, 0x79, 7, 9, 2, 1, 0x66, 0x00, 0, 1, 0x6d, 0x02, 0), new Set(['f']));
  });
});

describe('export sections whose sizes do not add up', () => {
  /**
   * The wasm export reader on sizes that do not add up: an export section that ends inside its
   * last export, and a section whose size runs past the end of the file even though what it holds
   * would read. Both are no module (undefined), as for the WebAssembly engine.
   */
  const HEAD = [0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0];
  const bytes = (...body: number[]) => Uint8Array.from([...HEAD, ...body]);

  describe('wasm export section: reading past an end', () => {
    test('an export section that ends before its last export does: no module', () => {
      // One export, "a", of a function: its index is missing, or cut inside its LEB128.
      for (const module of [bytes(7, 4, 1, 1, 0x61, 0x00), bytes(7, 5, 1, 1, 0x61, 0x00, 0x80)]) {
        assert.equal(WebAssembly.validate(module), false);
        assert.equal(wasmFunctionExports(module), undefined);
      }
      assert.deepEqual(wasmFunctionExports(bytes(7, 5, 1, 1, 0x61, 0x00, 0x00)), new Set(['a']), 'the same export, whole');
    });

    test('a section size a few bytes past the end of the file: no module, even when what is there would read', () => {
      for (const module of [bytes(7, 10, 1, 1, 0x61, 0x00, 0x00), bytes(0, 10, 1, 0x78)]) {
        assert.equal(WebAssembly.validate(module), false);
        assert.equal(wasmFunctionExports(module), undefined);
      }
    });
  });
});
