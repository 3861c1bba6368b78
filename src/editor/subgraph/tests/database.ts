/**
 * The Postgres the editor's test runs use: started by core on the first run, kept while the
 * extension is active (a run then costs gnd's time only), its data folder in the extension's
 * global storage, stopped on deactivate within a bound (core's watchdog stops it past that).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startTestDatabase, type TestDatabase } from './pending';

const STOP_BOUND_MS = 8000;

export class KeptTestDatabase implements vscode.Disposable {
  private database: Promise<TestDatabase> | undefined;

  constructor(private readonly globalStorage: vscode.Uri) {}

  /** The folder its cluster lives in: one for every workspace, as gnd's cache is. */
  get dataDir(): string {
    return path.join(this.globalStorage.fsPath, 'gnd-test-postgres');
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
