/**
 * Platform objects fit to show: credentials masked by the name of their field (the known
 * `auth_key` and `auth_password`, and any field, known to the schema or not, whose name says it
 * holds a secret: `db_password`, `x-api-key`, `secretToken`, a `credentials` object), and every
 * string scrubbed of those values and of the secret parts of URLs (redact.ts). The CLI and the
 * editor show objects only through here unless the user asked to see the credentials.
 */
import { REDACTED, redactText, SecretSet } from '../redact';
import { isRecord } from './parse';

/** The last word of a field name that makes its value a credential. */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'pass',
  'secret',
  'token',
  'key',
  'apikey',
  'credential',
  'credentials',
  'bearer',
  'authorization',
  'cookie',
  'jwt',
  'mnemonic',
]);

/** A last word that ends like one of them, written as one word: accesstoken, clientsecret, xapikey. */
const SECRET_ENDING = /(password|passwd|secret|token|apikey)$/;

/**
 * Whether a field's name says it holds a credential: its last word (split at `_`, `-`, `.`,
 * spaces and camelCase; a plural `s` dropped) is a secret word, as in `auth_key`, `db_password`,
 * `x-api-key`, `graphqlToken`, `credentials`, or the name is `auth`. Words after it make it a
 * fact about the credential: `token_type`, `password_updated_at`, `api_namespaces` are shown.
 */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const last = words.at(-1)?.replace(/(?<=[^s])s$/, '') ?? '';
  return (words.length === 1 && last === 'auth') || SECRET_WORDS.has(last) || SECRET_ENDING.test(last);
}

/**
 * Walks a value: `onSecret` gets each string or number that stands under a secret name (directly
 * or in an array there); an object under one is walked by its own names (a `token` object's
 * `token_type` is no secret).
 */
function walk(value: unknown, underSecret: boolean, visit: { secret(v: string | number): unknown; other(v: unknown): unknown; name(n: string): string }): unknown {
  if (underSecret && ((typeof value === 'string' && value) || typeof value === 'number')) return visit.secret(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, underSecret, visit));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([name, v]) => [visit.name(name), walk(v, isSecretName(name), visit)]));
  return visit.other(value);
}

/** The credential values an object holds (in fields named like secrets), at any depth. */
export function secretsOf(value: unknown): string[] {
  const found = new Set<string>();
  walk(value, false, { secret: (v) => found.add(String(v)), other: () => undefined, name: (n) => n });
  return [...found];
}

function scrub(value: unknown, secrets: SecretSet): unknown {
  return walk(value, false, {
    secret: () => REDACTED,
    other: (v) => (typeof v === 'string' ? redactText(v, secrets) : v),
    name: (n) => redactText(n, secrets),
  });
}

/** A copy with only the given values masked, wherever they appear (credentials shown on request). */
export function maskValues<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return secrets.reduce((text, s) => (s ? text.split(s).join(REDACTED) : text), value as string) as T;
  if (Array.isArray(value)) return value.map((v) => maskValues(v, secrets)) as T;
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, maskValues(v, secrets)])) as T;
}

/**
 * A copy of the object (or list) with its credentials masked; `more` adds values to mask (the
 * API key). The secrets are prepared once for the whole list, so thousands of nodes cost linear time.
 */
export function redactSecrets<T>(value: T, more: readonly string[] = []): T {
  return scrub(value, new SecretSet([...secretsOf(value), ...more])) as T;
}
