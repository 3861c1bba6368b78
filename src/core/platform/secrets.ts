/**
 * Platform objects fit to show: node credentials (`auth_key`, `auth_password`, and any field
 * whose name says it is a secret, in `extra` too) masked, and every string scrubbed of those
 * values and of the secret parts of URLs (redact.ts). The CLI and the editor show objects only through here
 * unless the user asked to see the credentials.
 */
import { REDACTED, redactText } from '../redact';
import { isRecord } from './parse';

/** Field names whose values are credentials, wherever they appear. */
const SECRET_FIELD = /^(auth_key|auth_password|password|passwd|secret|client_secret|token|access_token|api_key|apikey|access_key|private_key)$/i;

/** The credential values an object holds (in fields named like secrets), at any depth. */
export function secretsOf(value: unknown, found: Set<string> = new Set()): string[] {
  if (Array.isArray(value)) {
    for (const v of value) secretsOf(v, found);
  } else if (isRecord(value)) {
    for (const [name, v] of Object.entries(value)) {
      if (SECRET_FIELD.test(name) && typeof v === 'string' && v) found.add(v);
      else secretsOf(v, found);
    }
  }
  return [...found];
}

function scrub(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => scrub(v, secrets));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, SECRET_FIELD.test(name) && typeof v === 'string' && v ? REDACTED : scrub(v, secrets)]));
}

/** A copy with only the given values masked, wherever they appear (credentials shown on request). */
export function maskValues<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return secrets.reduce((text, s) => (s ? text.split(s).join(REDACTED) : text), value as string) as T;
  if (Array.isArray(value)) return value.map((v) => maskValues(v, secrets)) as T;
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, maskValues(v, secrets)])) as T;
}

/** A copy of the object (or list) with its credentials masked; `more` adds values to mask (the API key). */
export function redactSecrets<T>(value: T, more: readonly string[] = []): T {
  return scrub(value, [...secretsOf(value), ...more]) as T;
}
