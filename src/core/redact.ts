/**
 * Redaction of credentials in URLs and free text. Keys travel in URL paths (form A), in
 * userinfo (user:password@), and in query strings; every shown or logged URL goes through here.
 */

export const REDACTED = '***';

/** A path segment that looks like an access key: long, and letters mixed with digits or hex. */
export function looksLikeKey(segment: string): boolean {
  if (segment.length < 16) return false;
  if (!/^[A-Za-z0-9_\-.~%]+$/.test(segment)) return false;
  const hasDigit = /\d/.test(segment);
  const hasLetter = /[A-Za-z]/.test(segment);
  return hasDigit && hasLetter;
}

const SECRET_QUERY = /^(api[-_]?key|key|token|access[-_]?token|auth|secret|password|apikey)$/i;

/** Returns the URL with userinfo password, key-like path segments and secret query values masked. */
export function redactUrl(raw: string, knownSecrets: readonly string[] = []): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return redactKnown(raw, knownSecrets);
  }
  let changed = false;
  if (url.password) {
    url.password = REDACTED;
    changed = true;
  }
  const segments = url.pathname.split('/').map((s) => {
    if (!looksLikeKey(safeDecode(s))) return s;
    changed = true;
    return REDACTED;
  });
  url.pathname = segments.join('/');
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_QUERY.test(name)) {
      url.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  // Untouched URLs keep their exact spelling (URL.toString() would normalise them).
  const shown = changed ? url.toString().replace(/%2A%2A%2A/g, REDACTED) : raw;
  return redactKnown(shown, knownSecrets);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Masks every URL found in free text, and every known secret value wherever it appears. */
export function redactText(text: string, knownSecrets: readonly string[] = []): string {
  const urls = text.replace(/\b(?:https?|wss?):\/\/[^\s"'<>`]+/g, (u) => redactUrl(u));
  return redactKnown(urls, [...knownSecrets, ...registeredSecrets]);
}

function redactKnown(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join(REDACTED);
  }
  return out;
}

const registeredSecrets = new Set<string>();

/** Secrets loaded at run time (from SecretStorage or the environment) are masked in all text. */
export function registerSecret(secret: string | undefined): void {
  if (secret && secret.length >= 4) registeredSecrets.add(secret);
}
