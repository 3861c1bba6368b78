/** The subgraph manifest a command's PATH names: the file, or a folder's subgraph.yaml. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileErrorOf } from '../core/files';
import { UsageError } from './args';

/**
 * The manifest file `given` names (a folder means its subgraph.yaml); a usage error when it is
 * missing. `hint` says, when the default is missing, how to name another.
 */
export function manifestArg(given: string, hint: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(given);
  } catch (err) {
    const problem = fileErrorOf(given, err);
    // A file that is there but cannot be read (a symlink loop, no permission): read in work, which names the cause (exit 1).
    if (problem.kind !== 'missing') return given;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(problem.message);
    throw new UsageError(`${given}: no such file${given === 'subgraph.yaml' ? ` (run in the subgraph folder, or ${hint})` : ''}`);
  }
  if (!stat.isDirectory()) return given;
  const inside = path.join(given, 'subgraph.yaml');
  if (!fs.existsSync(inside)) throw new UsageError(`${given} is a folder without a subgraph.yaml`);
  return inside;
}
