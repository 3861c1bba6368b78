/**
 * Platform objects fit to show: credentials masked by the name of their field (the known
 * `auth_key` and `auth_password`, and any field, known to the schema or not, whose name says it
 * holds a secret: `db_password`, `x-api-key`, `secretToken`, a `credentials` object), and every
 * string scrubbed of those values and of the secret parts of URLs (redact.ts). The CLI and the
 * editor show objects only through here unless the user asked to see the credentials.
 */
import { REDACTED, redactText, SecretSet } from '../redact';
import { isRecord } from './parse';

/** Words of a field name that make its value a credential, wherever they stand in the name. */
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
  'private',
  'mnemonic',
  'seed',
  'phrase',
  'credential',
  'credentials',
  'bearer',
  'authorization',
  'cookie',
  'jwt',
  'dsn',
]);

/** A word that ends like one of them, written as one word: accesstoken, clientsecret, xapikey, privatekey. */
const SECRET_ENDING = /(password|passwd|secret|token|apikey|privatekey)$/;

/** Words that, when all the words after the last secret word are among them, make the field a fact about a credential. */
const FACT_WORDS = new Set(['type', 'id', 'name', 'updated', 'created', 'at', 'expires', 'expiry', 'expiration', 'in', 'count', 'length', 'hint', 'namespace']);

/** Names that are a credential only as the whole name (an `auth_username` or `access_level` is not). */
const WHOLE_NAME_SECRETS = new Set(['auth', 'access']);

/**
 * Whether a field's name says it holds a credential: one of its words (split at `_`, `-`, `.`,
 * spaces and camelCase; a plural `s` dropped) is a secret word, as in `auth_key`, `db_password`,
 * `x-api-key`, `private_key_hex`, `seed_phrase`, `pass-word`, `dsn`, or the whole name is `auth`
 * or `access`. Only fact words after the last secret word make it a fact about the credential:
 * `token_type`, `password_updated_at`, `key_id`, `keyName` are shown.
 */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.replace(/(?<=[^s])s$/, ''));
  if (words.length === 1 && WHOLE_NAME_SECRETS.has(words[0])) return true;
  let last = words.length - 1;
  while (last >= 0 && !SECRET_WORDS.has(words[last]) && !SECRET_ENDING.test(words[last])) last--;
  return last >= 0 && !(last < words.length - 1 && words.slice(last + 1).every((w) => FACT_WORDS.has(w)));
}

/**
 * `scheme://user:password@` in any scheme (postgres://, amqp://, redis://): the password is a
 * secret, the user a name (as `auth_username` is); a user without a password may be a token
 * (`https://TOKEN@host`), so it is a secret.
 */
const USERINFO = /(\b[a-z][a-z0-9+.-]{0,31}:\/\/)([^\s/?#@:"'<>`]*)(?::([^\s/?#@"'<>`]*))?@/gi;

/** The secret part of every URL's userinfo in a text. */
function userinfoSecrets(text: string): string[] {
  return [...text.matchAll(USERINFO)].map((m) => m[3] ?? m[2]).filter(Boolean);
}

/** The text with the secret part of every URL's userinfo, whatever its scheme, masked. */
function maskUserinfo(text: string): string {
  return text.replace(USERINFO, (_m, scheme: string, user: string, password?: string) => `${scheme}${password === undefined ? '' : `${user}:`}${REDACTED}@`);
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
  walk(value, false, {
    secret: (v) => found.add(String(v)),
    other: (v) => typeof v === 'string' && userinfoSecrets(v).forEach((x) => found.add(x)),
    name: (n) => n,
  });
  return [...found];
}

function scrub(value: unknown, secrets: SecretSet): unknown {
  return walk(value, false, {
    secret: () => REDACTED,
    other: (v) => (typeof v === 'string' ? redactText(maskUserinfo(v), secrets) : v),
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
