/**
 * The data folder of a local graph-node: private to its user, marked as a local graph-node's,
 * and refused when it holds anything else. Chaindeck writes its own files there (the Postgres
 * cluster, the IPFS blocks, gnd's placeholder in dev/) and removes a temporary one whole, so a
 * folder of the user's (a project, another node's Postgres cluster) is never written into, and
 * no mode is changed but of the folders it creates.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { LOCK_FILE } from './lock';
import { PLACEHOLDER_DESCRIPTION } from './placeholder';

/** The mark of a local graph-node's data folder. */
export const MARK_FILE = 'chaindeck-graph-node.json';
const MARK = `${JSON.stringify({ chaindeck: 'local graph-node data folder', version: 1 })}\n`;

/** What Chaindeck puts in a data folder (an earlier version made them without the mark). */
const OURS = new Set(['pg', 'pg.initdb', 'ipfs', 'dev', LOCK_FILE, MARK_FILE]);

/** A data folder that cannot be used: the message says why and what to do. */
export class DataFolderError extends Error {}

/** As root, Postgres runs as the postgres user, which must pass through the folder: others may traverse it, not list it. */
const privateMode = (root: boolean) => (root ? 0o711 : 0o700);

/** Whether a folder without the mark was made by an earlier Chaindeck: only its entries, and its placeholder manifest. */
function madeByChaindeck(dir: string, entries: readonly string[]): boolean {
  if (!entries.every((e) => OURS.has(e))) return false;
  try {
    return readFileSync(path.join(dir, 'dev', 'subgraph.yaml'), 'utf8').includes(PLACEHOLDER_DESCRIPTION);
  } catch {
    return false;
  }
}

/**
 * The data folder to use: `given` (created when missing; used when empty or a local graph-node's,
 * else refused with the reason) or a new temporary one. Returns its absolute path.
 */
export async function prepareDataFolder(given: string | undefined, root: boolean): Promise<{ dir: string; temporary: boolean }> {
  if (given === undefined) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'chaindeck-graph-node-'));
    await chmod(dir, privateMode(root));
    writeFileSync(path.join(dir, MARK_FILE), MARK, { mode: 0o600 });
    return { dir, temporary: true };
  }
  const dir = path.resolve(given);
  if (!existsSync(dir)) {
    await mkdir(dir, { recursive: true, mode: privateMode(root) });
    await chmod(dir, privateMode(root)); // the umask narrows mkdir's mode
  } else {
    if (!statSync(dir).isDirectory()) throw new DataFolderError(`The data folder ${dir} is not a folder: choose a folder (a missing one is created).`);
    const entries = readdirSync(dir);
    if (entries.length > 0 && !entries.includes(MARK_FILE) && !madeByChaindeck(dir, entries)) {
      const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
      throw new DataFolderError(
        `The data folder ${dir} is not empty and is not a local graph-node's (it holds ${shown}): nothing in it was changed. Choose a new or empty folder, or one a local graph-node started with.`,
      );
    }
  }
  if (!existsSync(path.join(dir, MARK_FILE))) writeFileSync(path.join(dir, MARK_FILE), MARK, { mode: 0o600 });
  return { dir, temporary: false };
}
