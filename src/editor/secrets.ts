/**
 * Credentials live only in VS Code's SecretStorage (the system keychain). Every value read or
 * written is registered with the redactor, so it is masked wherever it might be logged or shown.
 */
import * as vscode from 'vscode';
import { registerSecret } from '../core/redact';

export class Secrets {
  constructor(private readonly storage: vscode.SecretStorage) {}

  /** A group of named credentials kept as one secret, e.g. a node's username and password. */
  async get<T extends object>(key: string): Promise<T | undefined> {
    const stored = await this.storage.get(key);
    if (stored === undefined) return undefined;
    let record: T;
    try {
      record = JSON.parse(stored) as T;
    } catch {
      // Not written by us; treat it as unusable rather than echo it anywhere.
      return undefined;
    }
    registerAll(record);
    return record;
  }

  /** Stores the record's non-empty fields; a record with none deletes the secret. */
  async set(key: string, record: object): Promise<void> {
    registerAll(record);
    const present = Object.fromEntries(Object.entries(record).filter(([, v]) => v));
    if (Object.keys(present).length === 0) return this.delete(key);
    await this.storage.store(key, JSON.stringify(present));
  }

  async delete(key: string): Promise<void> {
    await this.storage.delete(key);
  }
}

/**
 * Usernames stay readable: they only identify, and masking words like "admin" would garble logs.
 * A tail's short segments are not masked as whole values here: the views show network names
 * (`mainnet`) that a URL path often holds too.
 */
function registerAll(record: object): void {
  for (const [name, value] of Object.entries(record)) {
    if (typeof value !== 'string' || name === 'username') continue;
    registerSecret(value);
  }
}
