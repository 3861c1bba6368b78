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

/** Folders a build writes into a project, besides its outputs: the generated types and dependencies. */
const WRITTEN_BY_TOOLS: readonly string[] = [...BUILD_OUTPUT_DIRS, 'generated', 'node_modules'];

/**
 * Whether `file` is a source of the subgraph project whose manifest is `manifest`: inside the
 * manifest's folder and not in a folder tools write there (build/, dist/, generated/,
 * node_modules/). Only the part below the project counts: a "build" folder above it is the user's.
 */
export function isProjectSource(file: string, manifest: string): boolean {
  const folder = parts(manifest).slice(0, -1);
  const p = parts(file);
  if (p.length <= folder.length || folder.some((part, i) => p[i] !== part)) return false;
  return !p.slice(folder.length, -1).some((part) => WRITTEN_BY_TOOLS.includes(part));
}
