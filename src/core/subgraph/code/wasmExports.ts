/**
 * The names of the functions a WebAssembly module exports, read from its binary: compiled
 * manifests (graph build's build/ output) name the .wasm as the mapping file, and graph-node calls
 * handlers by their exported name. Only the export section (id 7) is decoded; every size in the
 * file is checked against what is left before it is used, so a truncated or hostile file gives
 * `undefined`, never a throw or a huge allocation.
 */

const MAGIC = [0x00, 0x61, 0x73, 0x6d];
const EXPORT_SECTION = 7;
const FUNC_EXPORT = 0;

class Reader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get left(): number {
    return this.bytes.length - this.pos;
  }

  byte(): number {
    if (this.pos >= this.bytes.length) throw new RangeError('truncated');
    return this.bytes[this.pos++];
  }

  /** An unsigned LEB128 of at most 32 bits (5 bytes). */
  u32(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) {
        if (result > 0xffffffff) throw new RangeError('LEB128 overflow');
        return result;
      }
    }
    throw new RangeError('LEB128 too long');
  }

  /** `n` bytes, refused when more than what is left. */
  take(n: number): Uint8Array {
    if (n > this.left) throw new RangeError('truncated');
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

/** Exported function names, or undefined when `bytes` is not a readable WebAssembly module. */
export function wasmFunctionExports(bytes: Uint8Array): Set<string> | undefined {
  if (bytes.length < 8 || MAGIC.some((b, i) => bytes[i] !== b)) return undefined;
  const r = new Reader(bytes);
  r.pos = 8; // magic and version
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    while (r.left > 0) {
      const id = r.byte();
      const body = r.take(r.u32());
      if (id !== EXPORT_SECTION) continue;
      const s = new Reader(body);
      const count = s.u32();
      // Each export takes at least 3 bytes: a count beyond that is a lie, not a reason to loop.
      if (count > s.left / 3) return undefined;
      const names = new Set<string>();
      for (let i = 0; i < count; i++) {
        const name = decoder.decode(s.take(s.u32()));
        const kind = s.byte();
        s.u32(); // index
        if (kind === FUNC_EXPORT) names.add(name);
      }
      return names;
    }
    return new Set(); // a module without an export section exports nothing
  } catch {
    return undefined;
  }
}
