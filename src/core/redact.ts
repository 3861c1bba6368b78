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
import { oneLine } from './inert';

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
export function redactUrl(raw: string, knownSecrets: SecretList = [], options: RedactOptions = {}): string {
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
export function redactText(text: string, knownSecrets: SecretList = []): string {
  // A URL ends before the escapes oneLine writes for line breaks (`\n`, `\r`, `\u2028`): text
  // masked again after it was put on one line keeps what followed the break.
  const urls = text.replace(/(?:https?|wss?):\/\/(?:[^\s"'<>`\\]|\\(?![nr]|u[0-9a-f]{4}))+/gi, (u) => {
    const tail = TRAILING.exec(u)?.[0] ?? '';
    return redactUrl(u.slice(0, u.length - tail.length)) + tail;
  });
  return redactKnown(urls, knownSecrets);
}

/**
 * Outside text quoted in a one-line message (a node's error message): masked before it is cut, so
 * a cut never ends inside a secret and shows its start, and a URL ends at a real line break.
 */
export function maskedLine(text: string, knownSecrets: SecretList = [], max?: number): string {
  return oneLine(redactText(text, knownSecrets), max);
}

/**
 * Masks only known secret values (given and registered), not URL parts by the rule: for output
 * the user asked to see unredacted (--show-secrets), and for a program's output whose every
 * secret we handed it ourselves (graph CLI), where masking its URLs would hide the links it prints.
 */
export function redactKnownSecrets(text: string, known: SecretList = []): string {
  return redactKnown(text, known);
}

/** Given secrets and the registered ones, masked: each list in one linear pass (see SecretSet). */
function redactKnown(text: string, given: SecretList): string {
  return registered().mask(secretSet(given).mask(text));
}

/**
 * Secrets shorter than this are too likely to be ordinary text ("ab", "1") to mask wherever they
 * occur; they are masked only where they stand as a whole value or a part of a URL.
 */
const MIN_ANYWHERE = 4;

/** A list of secrets, or one prepared once for many texts (a command's output, a list's objects). */
export type SecretList = readonly string[] | SecretSet;

/**
 * A set of secret values that masks all of them in a text in one pass, however many there are
 * (a platform listing holds thousands): an Aho–Corasick automaton, so the cost is the text's
 * length plus the matches, not the text times the secrets.
 */
export class SecretSet {
  /** The automaton's edges: state × 0x10000 + UTF-16 code unit → the next state (0 is the root). */
  private readonly edges = new Map<number, number>();
  /** Per state: the longest proper suffix that is a state, and the longest secret ending there (0 when none). */
  private readonly fail: number[] = [0];
  private readonly longest: number[] = [0];
  /** Short secrets: masked only as a whole value or a URL part. */
  readonly short: ReadonlySet<string>;

  /** `wholeOnly`: secrets masked only as a whole value or a URL part, whatever their length. */
  constructor(secrets: Iterable<string>, wholeOnly: Iterable<string> = []) {
    const short = new Set<string>([...wholeOnly].filter(Boolean));
    // Per state, its parent and the code unit leading to it, and the states level by level.
    const parent = [0];
    const unit = [0];
    const levels: number[][] = [];
    for (const secret of new Set(secrets)) {
      if (secret.length < MIN_ANYWHERE) {
        if (secret) short.add(secret);
        continue;
      }
      let state = 0;
      for (let i = 0; i < secret.length; i++) {
        const key = state * 0x10000 + secret.charCodeAt(i);
        let to = this.edges.get(key);
        if (to === undefined) {
          to = parent.push(state) - 1;
          unit.push(secret.charCodeAt(i));
          this.fail.push(0);
          this.longest.push(0);
          this.edges.set(key, to);
          (levels[i] ??= []).push(to);
        }
        state = to;
      }
      this.longest[state] = secret.length;
    }
    this.short = short;
    // Level by level, so a suffix's links are known before they are used.
    for (const level of levels.slice(1)) {
      for (const state of level) {
        this.fail[state] = this.step(this.fail[parent[state]], unit[state]);
        this.longest[state] = Math.max(this.longest[state], this.longest[this.fail[state]]);
      }
    }
  }

  /** The state after reading code unit `c` in `state`, falling back along the fail links. */
  private step(state: number, c: number): number {
    for (;;) {
      const to = this.edges.get(state * 0x10000 + c);
      if (to !== undefined) return to;
      if (state === 0) return 0;
      state = this.fail[state];
    }
  }

  /** Every occurrence of a secret of 4 characters or more replaced; overlapping ones become one ***. */
  mask(text: string): string {
    let masked = text;
    if (this.edges.size) {
      // Spans [start, end) of the occurrences, merged; a longer one found later may swallow earlier ones.
      const spans: [number, number][] = [];
      let state = 0;
      for (let i = 0; i < text.length; i++) {
        state = this.step(state, text.charCodeAt(i));
        const found = this.longest[state];
        if (!found) continue;
        let start = i + 1 - found;
        while (spans.length && spans[spans.length - 1][1] > start) start = Math.min(start, spans.pop()![0]);
        spans.push([start, i + 1]);
      }
      if (spans.length) {
        masked = '';
        let copied = 0;
        for (const [start, end] of spans) {
          masked += text.slice(copied, start) + REDACTED;
          copied = end;
        }
        masked += text.slice(copied);
      }
    }
    return this.short.size ? this.maskShort(masked) : masked;
  }

  /** Short secrets where they stand whole: the whole text, or a part of a URL (userinfo, a path segment, a query value). */
  private maskShort(text: string): string {
    if (this.short.has(text)) return REDACTED;
    // What follows a scheme's `://` (found by looking behind, so a long run of letters costs one pass), split at URL punctuation.
    return text.replace(/(?<=[a-z][a-z0-9+.-]{0,31}:\/\/)[^\s"'<>`]+/gi, (rest) => rest.replace(/[^:@/\\?#&=;]+/g, (part) => (this.short.has(part) ? REDACTED : part)));
  }
}

const secretSets = new WeakMap<readonly string[], SecretSet>();

function secretSet(list: SecretList): SecretSet {
  if (list instanceof SecretSet) return list;
  let set = secretSets.get(list);
  if (!set) secretSets.set(list, (set = new SecretSet(list)));
  return set;
}

/** A copy of a JSON value with `mask` applied to every string and object key. */
function maskStrings<T>(value: T, mask: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return mask(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [mask(k), walk(x)]));
  };
  return walk(value) as T;
}

/**
 * A copy of a JSON value with every string (and object key) redacted as free text, for output
 * that is serialised after: masking the serialised text instead would cut into its escapes
 * (`\n`, `\"` after a URL) and print JSON that does not parse.
 */
export function redactValue<T>(value: T, knownSecrets: SecretList = []): T {
  const known = secretSet(knownSecrets);
  return maskStrings(value, (text) => redactText(text, known));
}

/** A copy of a JSON value with only known secrets masked in its strings (shown on request). */
export function redactKnownInValue<T>(value: T, knownSecrets: SecretList = []): T {
  const known = secretSet(knownSecrets);
  return maskStrings(value, (text) => redactKnown(text, known));
}

const registeredSecrets = new Set<string>();
const registeredWhole = new Set<string>();
let registeredSet: SecretSet | undefined;

/** The registered secrets, prepared again only after one was added. */
function registered(): SecretSet {
  return (registeredSet ??= new SecretSet(registeredSecrets, registeredWhole));
}
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

/**
 * Secrets loaded at run time (from SecretStorage or the environment) are masked in all text.
 * `whole`: only where it stands as a whole value or a URL part, as a short secret is (a short
 * path segment of a node's URL, which anywhere would hide ordinary words).
 */
export function registerSecret(secret: string | undefined, { whole = false }: { whole?: boolean } = {}): void {
  const set = whole ? registeredWhole : registeredSecrets;
  if (!secret || set.has(secret)) return;
  set.add(secret);
  registeredSet = undefined;
}
