/**
 * The platform API key and the clients built from it. The key lives in SecretStorage only, like
 * every credential, and is registered with the redactor, so it is masked in every log line and
 * message. The context key `chaindeck.platform.hasKey` follows it: the Platform view's welcome
 * and menus depend on it.
 */
import * as vscode from 'vscode';
import { PlatformClient } from '../../core/platform/client';
import { registerSecret } from '../../core/redact';
import { CONTEXT_KEYS } from '../ids';
import type { Settings } from '../kit/settings';
import type { Secrets } from '../secrets';

const SECRET = 'chaindeck.platform.apiKey';

interface StoredKey {
  apiKey?: string;
}

export class PlatformSession implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the key, the API URL or the timeout changes: whatever was read before is stale. */
  readonly onDidChange = this.changed.event;
  private key: string | undefined;
  private readonly ready: Promise<void>;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly secrets: Secrets,
    storage: vscode.SecretStorage,
    private readonly settings: Settings,
  ) {
    this.ready = this.reload();
    this.subscriptions = [
      // Another window set or forgot the key.
      storage.onDidChange((e) => {
        if (e.key === SECRET) void this.reload();
      }),
      settings.onDidChange(['platformApiUrl', 'requestTimeoutMs'], () => this.changed.fire()),
    ];
  }

  /** Whether a key is stored (what the context key says). */
  get hasKey(): boolean {
    return this.key !== undefined;
  }

  async setKey(apiKey: string): Promise<void> {
    await this.ready;
    await this.secrets.set(SECRET, { apiKey } satisfies StoredKey);
    await this.use(apiKey);
  }

  async forgetKey(): Promise<void> {
    await this.ready;
    await this.secrets.delete(SECRET);
    await this.use(undefined);
  }

  /** The API's base URL from the settings. */
  apiUrl(): string {
    return this.settings.platformApiUrl();
  }

  /**
   * A client for the stored key and the current settings; undefined when no key is stored.
   * Throws PlatformError when the API URL setting cannot be used.
   */
  async client(): Promise<PlatformClient | undefined> {
    await this.ready;
    if (this.key === undefined) return undefined;
    return new PlatformClient({ apiKey: this.key, apiUrl: this.apiUrl(), ...this.settings.limits() });
  }

  private async reload(): Promise<void> {
    const apiKey = (await this.secrets.get<StoredKey>(SECRET))?.apiKey || undefined;
    // Our own writes come back through onDidChange too: only a real change counts.
    if (apiKey !== this.key) await this.use(apiKey);
  }

  private async use(apiKey: string | undefined): Promise<void> {
    // Secrets registers what it reads and writes too; this says so where the key is held.
    registerSecret(apiKey);
    this.key = apiKey;
    // The context first: when the tree empties, the welcome must already know which button to show.
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.platformHasKey, apiKey !== undefined);
    this.changed.fire();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
