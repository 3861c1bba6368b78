/**
 * The wasm export reader on sizes that do not add up: an export section that ends inside its
 * last export, and a section whose size runs past the end of the file even though what it holds
 * would read. Both are no module (undefined), as for the WebAssembly engine.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { wasmFunctionExports } from '../../src/core/subgraph/code/wasmExports';

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
