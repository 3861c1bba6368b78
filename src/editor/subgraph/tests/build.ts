/**
 * The build a test run or a capture needs first (codegen, then build), through the editor's
 * toolchain: the same CLI, trust check and cleaned output as the `graph` tasks.
 */
import * as path from 'node:path';
import { graphBuildCommand, graphCodegenCommand } from '../../../core/subgraph/graphcli/commands';
import type { GraphToolchain } from '../tasks/toolchain';
import type { BuildStep } from './pending';

export function buildStep(toolchain: GraphToolchain, manifest: string): BuildStep {
  return async (signal, out) => {
    const cwd = path.dirname(manifest);
    const found = toolchain.findCli(cwd);
    if ('missing' in found) throw new Error(found.missing);
    for (const command of [graphCodegenCommand(path.basename(manifest)), graphBuildCommand(path.basename(manifest))]) {
      out(`> graph ${command.args.join(' ')}`);
      const run = await toolchain.run(command, { cli: found.cli, cwd, signal, out: (text) => text.split(/\r?\n/).forEach((line) => line && out(line)) });
      if (run.cancelled) throw Object.assign(new Error('The build was cancelled'), { cancelled: true });
      if (!run.outcome.ok) throw new Error(`graph ${command.subcommand} failed: ${run.outcome.summary}`);
    }
  };
}
