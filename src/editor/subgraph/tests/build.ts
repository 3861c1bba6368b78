/**
 * The build a test run or a capture needs first (codegen, then build), through the editor's
 * toolchain: graph-cli where the project has it, else gnd, as the `graph` tasks choose.
 */
import * as path from 'node:path';
import { buildStep as toolchainBuildStep } from '../../../core/subgraph/graphcli/toolchain';
import { nodeBinary, type GraphToolchain } from '../tasks/toolchain';

export type BuildStep = (signal: AbortSignal, out: (line: string) => void) => Promise<void>;

/** The build step for the manifest; rejects with the one line that says why no toolchain can build it. */
export async function buildStep(toolchain: GraphToolchain, manifest: string): Promise<BuildStep> {
  const found = await toolchain.resolve(path.dirname(manifest));
  if ('missing' in found) throw new Error(found.missing);
  return toolchainBuildStep(manifest, found.toolchain, { node: nodeBinary() });
}
