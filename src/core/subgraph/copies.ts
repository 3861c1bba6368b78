/**
 * Which subgraph.yaml files are copies rather than the user's: those in dependencies, and the
 * compiled outputs (`graph build` writes build/; projects that build with `--output-dir dist`
 * get dist/). Their mapping files are .wasm, so checking them only repeats the source's findings.
 */

/** Folders holding compiled manifests. */
export const BUILD_OUTPUT_DIRS: readonly string[] = ['build', 'dist'];

const parts = (file: string) => file.split(/[\\/]/);

/** A manifest inside node_modules, or directly in a build output folder (build/subgraph.yaml). */
export function isManifestCopy(file: string): boolean {
  const p = parts(file);
  return p.includes('node_modules') || BUILD_OUTPUT_DIRS.includes(p[p.length - 2]);
}

/** A subgraph manifest by its name (subgraph.yaml, `<name>.subgraph.yaml`) that is not a copy. */
export function isManifestFile(file: string): boolean {
  const p = parts(file);
  return /^(?:.+\.)?subgraph\.yaml$/.test(p[p.length - 1]) && !isManifestCopy(file);
}
