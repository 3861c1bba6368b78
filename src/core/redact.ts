/**
 * Redaction of credentials in URLs and free text; every shown or logged URL goes through here.
 *
 * The rule (the one place it is written down): in a URL, the userinfo, every path segment, the
 * query and the fragment are secret, whatever they look like. Providers put keys in any of them
 * and no pattern tells a key from a word (`abc123key`, letter-only keys, `+`/`=`, `?token=`).
 * Two exceptions only: a path marked public (`publicPath`, e.g. a node whose `/rpc` holds no key),
 * and the leading `/ws` of a ws(s) URL, which is the provider's WebSocket route, not a key.
 * Loopback URLs get no exception: a local proxy may hold a real key too; `/` has nothing to hide.
 */

export const REDACTED = '***';

export interface RedactOptions {
  /** The path of this URL is not a secret (userinfo, query and fragment still are). */
  publicPath?: boolean;
  /** Nor is its query: an API's own route whose key travels in a header (pagination, filters). */
  publicQuery?: boolean;
}

/**
 * scheme://authority path ?query #fragment, split without normalising anything. A backslash ends
 * the authority as a slash does: URL parsers read `http://host\KEY` as the path `/KEY`.
 */
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)([^/\\?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/is;

export interface UrlParts {
  /** e.g. `https://` */
  scheme: string;
  /** user:password@host:port, as written */
  authority: string;
  /** the authority after its userinfo: host:port, as written ('' when none) */
  host: string;
  path: string;
  /** `?…` or '' */
  query: string;
  /** `#…` or '' */
  fragment: string;
}

/** A URL's parts exactly as written (no normalisation), or undefined when it is not scheme://… */
export function splitUrl(raw: string): UrlParts | undefined {
  const m = URL_PARTS.exec(raw);
  return m ? { scheme: m[1], authority: m[2], host: m[2].slice(m[2].lastIndexOf('@') + 1), path: m[3], query: m[4] ?? '', fragment: m[5] ?? '' } : undefined;
}

/** Whether path segment number `index` (1 = first) of a URL with `scheme` is the public `/ws` route. */
export function isWsRoute(scheme: string, index: number, segment: string): boolean {
  return index === 1 && segment === 'ws' && /^wss?:/i.test(scheme);
}

/** The URL with its secret parts (see the rule above) masked; anything not a URL only of `knownSecrets`. */
export function redactUrl(raw: string, knownSecrets: readonly string[] = [], options: RedactOptions = {}): string {
  const parts = splitUrl(raw);
  if (!parts) return redactKnown(redactLoose(raw), knownSecrets);
  const { scheme, authority, host, path, query, fragment } = parts;
  const userinfo = authority.includes('@') ? `${REDACTED}@` : '';
  const registered = options.publicPath === undefined ? isPublicUrl(scheme, host, path) : undefined;
  const shownPath = (options.publicPath ?? registered !== undefined) ? path : maskPath(path, scheme);
  const queryPublic = options.publicQuery ?? registered === 'route';
  const shown = `${scheme}${userinfo}${host}${shownPath}${query.length > 1 && !queryPublic ? `?${REDACTED}` : query}${fragment.length > 1 ? `#${REDACTED}` : fragment}`;
  return redactKnown(shown, knownSecrets);
}

/**
 * Text given as a URL that is not scheme://… (`http:host/KEY`, `host:8545/KEY`, `u:p@host`): a
 * URL parser may still read a path, query or userinfo in it, so everything after the first `/`,
 * `\`, `?` or `#` is masked, and whatever comes before an `@`.
 */
function redactLoose(raw: string): string {
  const cut = raw.search(/[/\\?#]/);
  const head = cut < 0 ? raw : raw.slice(0, cut);
  const rest = cut < 0 ? '' : raw.slice(cut);
  const at = head.lastIndexOf('@');
  return `${at >= 0 ? `${REDACTED}@${head.slice(at + 1)}` : head}${rest.length > 1 ? `${rest[0]}${REDACTED}` : rest}`;
}

/** Every non-empty segment as ***, the slashes kept (a leading `ws` of a WebSocket URL too). */
function maskPath(path: string, scheme: string): string {
  // Pieces each start with their separator (a backslash counts as a slash, as in URL parsers).
  return path
    .split(/(?=[/\\])/)
    .map((piece, i) => {
      const segment = piece.slice(1);
      return segment === '' || segment === REDACTED || isWsRoute(scheme, i + 1, segment) ? piece : `${piece[0]}${REDACTED}`;
    })
    .join('');
}

/** Punctuation that ends a sentence rather than a URL: "failed at https://h/KEY: timeout". */
const TRAILING = /[.,;:!?)\]}'"]+$/;

/**
 * Masks every URL found in free text (by the rule above), and every known secret value wherever it
 * appears. A URL counts wherever its scheme starts, even glued to a word (`seehttps://…`).
 */
export function redactText(text: string, knownSecrets: readonly string[] = []): string {
  const urls = text.replace(/(?:https?|wss?):\/\/[^\s"'<>`]+/gi, (u) => {
    const tail = TRAILING.exec(u)?.[0] ?? '';
    return redactUrl(u.slice(0, u.length - tail.length)) + tail;
  });
  return redactKnown(urls, [...knownSecrets, ...registeredSecrets]);
}

/**
 * Masks only known secret values (given and registered), not URL parts by the rule: for output
 * the user asked to see unredacted (--show-secrets), and for a program's output whose every
 * secret we handed it ourselves (graph CLI), where masking its URLs would hide the links it prints.
 */
export function redactKnownSecrets(text: string, known: readonly string[] = []): string {
  return redactKnown(text, [...known, ...registeredSecrets]);
}

function redactKnown(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join(REDACTED);
  }
  return out;
}

const registeredSecrets = new Set<string>();
const publicUrls = new Set<string>();
const publicPrefixes = new Set<string>();

function publicKey(scheme: string, host: string, path: string): string {
  return `${scheme.toLowerCase()}${host.toLowerCase()}${path}`;
}

/**
 * A URL whose path is public: wherever exactly this scheme, host and path appear (free text
 * included) the path is shown; userinfo and query stay masked. Exact by default (a node's `/rpc`
 * being public says nothing about `/rpc/<KEY>`). `prefix`: an API base whose key travels in a
 * header, so every route below it and their queries (pages, filters) are public.
 */
export function registerPublicUrl(url: string, { prefix = false }: { prefix?: boolean } = {}): void {
  const parts = splitUrl(url);
  if (!parts) return;
  const key = publicKey(parts.scheme, parts.host, parts.path.replace(/\/+$/, ''));
  (prefix ? publicPrefixes : publicUrls).add(key);
}

/** 'path' for a registered public URL, 'route' below a registered API base, else undefined. */
function isPublicUrl(scheme: string, host: string, path: string): 'path' | 'route' | undefined {
  const key = publicKey(scheme, host, path);
  for (const p of publicPrefixes) if (key === p || key.startsWith(`${p}/`)) return 'route';
  if (publicUrls.has(key) || publicUrls.has(key.replace(/\/+$/, ''))) return 'path';
  return undefined;
}

/** Secrets loaded at run time (from SecretStorage or the environment) are masked in all text. */
export function registerSecret(secret: string | undefined): void {
  if (secret && secret.length >= 4) registeredSecrets.add(secret);
}
