/**
 * The Postgres the editor's test runs use: started by core on the first run, kept while the
 * extension is active (a run then costs gnd's time only), its data folder in the extension's
 * global storage, stopped on deactivate within a bound (core's watchdog stops it past that).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startTestDatabase, type TestDatabase } from '../../../core/gndtest/database';

const STOP_BOUND_MS = 8000;

export class KeptTestDatabase implements vscode.Disposable {
  private database: Promise<TestDatabase> | undefined;

  constructor(private readonly globalStorage: vscode.Uri) {}

  /**
   * The folder its cluster lives in: one for every workspace, as gnd's cache is. As root, Postgres
   * runs as the user postgres, which must pass through every folder above it: where the global
   * storage is private (a home folder), a private folder of the temporary folder instead.
   */
  get dataDir(): string {
    const preferred = path.join(this.globalStorage.fsPath, 'gnd-test-postgres');
    if (process.getuid?.() !== 0 || traversable(this.globalStorage.fsPath)) return preferred;
    const fallback = path.join(os.tmpdir(), `chaindeck-gnd-test-${createHash('sha256').update(preferred).digest('hex').slice(0, 12)}`);
    fs.mkdirSync(fallback, { recursive: true, mode: 0o711 });
    fs.chmodSync(fallback, 0o711);
    return path.join(fallback, 'postgres');
  }

  /** The running database, started now if it is not; a start that failed is tried again next time. */
  get(signal?: AbortSignal): Promise<TestDatabase> {
    const starting = (this.database ??= startTestDatabase({ dataDir: this.dataDir, signal }));
    starting.catch(() => {
      if (this.database === starting) this.database = undefined;
    });
    return starting;
  }

  /** Stops it, waiting at most STOP_BOUND_MS. */
  async stop(): Promise<void> {
    const database = this.database;
    this.database = undefined;
    if (!database) return;
    const stopped = database.then((d) => d.stop()).catch(() => undefined);
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, STOP_BOUND_MS).unref())]);
  }

  dispose(): void {
    void this.stop();
  }
}

/** Whether every folder from `dir` up may be passed through by other users (o+x), as far as they exist. */
function traversable(dir: string): boolean {
  for (let at = dir; ; at = path.dirname(at)) {
    try {
      if ((fs.statSync(at).mode & 0o001) === 0) return false;
    } catch {
      // not made yet: made with the default mode later; its parents decide
    }
    if (path.dirname(at) === at) return true;
  }
}
