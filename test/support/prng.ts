/** mulberry32: a small seeded PRNG, so random layouts repeat run to run and a failing case can be replayed from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * How many random cases a property test runs (or how many bytes a size test feeds): `n`, or a tenth of it under the mutation run
 * (`npm run mutate` sets CHAINDECK_PROPERTY_SCALE=0.1), where every test file runs once per mutant
 * and the full count would make the run hours longer. `npm test` always runs the full count.
 */
export function propertyRuns(n: number): number {
  const scale = Number(process.env.CHAINDECK_PROPERTY_SCALE ?? '1');
  return Number.isFinite(scale) && scale > 0 && scale < 1 ? Math.max(1, Math.round(n * scale)) : n;
}
