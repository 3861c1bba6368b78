/**
 * Which subgraph.yaml files are copies rather than the user's: those in dependencies, and the
 * compiled outputs (`graph build` writes build/; projects that build with `--output-dir dist`
 * get dist/). Their mapping files are .wasm, so checking them only repeats the source's findings.
 */

/** Folders holding compiled manifests. */
export const BUILD_OUTPUT_DIRS: readonly string[] = ['build', 'dist'];

/** For workspace searches: dependencies, compiled outputs and generated code. */
export const MANIFEST_EXCLUDE_GLOB = `{**/node_modules/**,${BUILD_OUTPUT_DIRS.map((d) => `**/${d}/**`).join(',')},**/generated/**}`;

const parts = (file: string) => file.split(/[\\/]/);

/** A manifest inside node_modules, or directly in a build output folder (build/subgraph.yaml). */
export function isManifestCopy(file: string): boolean {
  const p = parts(file);
  return p.includes('node_modules') || BUILD_OUTPUT_DIRS.includes(p[p.length - 2]);
}

/** Anything under node_modules, a build output folder or generated/ (what the subgraph tree lists not). */
export function isUnderExcludedFolder(file: string): boolean {
  return parts(file).some((part) => part === 'node_modules' || part === 'generated' || BUILD_OUTPUT_DIRS.includes(part));
}
