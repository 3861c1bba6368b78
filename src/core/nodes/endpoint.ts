/**
 * Endpoints as pasted from a provider's console, turned into what settings may keep (no secret)
 * plus the secret for SecretStorage, and back into callable URLs and headers.
 *
 * What is secret follows the rule in redact.ts: userinfo, the path (unless the user marks it
 * public) and the query. Settings keep the URL up to its public part followed by KEY_PLACEHOLDER;
 * SecretStorage keeps what the placeholder stands for (the tail), verbatim, so parse → resolve
 * gives back the pasted URL byte for byte. Form A: https://<network>.core.<host>/<KEY> and
 * wss://<network>.core.<host>/ws/<KEY>. Form B: HTTP Basic, pasted as https://user:pass@host/….
 * A URL given by hand rather than stored (the CLI's --rpc, the local node's chain) becomes an
 * endpoint in one call, endpointFromUrl, by the same rules.
 */
import { isWsRoute, REDACTED, redactUrl, registerPublicUrl, registerSecret, splitUrl } from '../redact';
import type { AuthForm, ResolvedEndpoint } from '../rpc/endpoint';
import { KEY_PLACEHOLDER, type NodeConfig, type NodeSecret, type Protocol } from './model';

export class EndpointError extends Error {
  override readonly name = 'EndpointError';
}

/** What a pasted endpoint says about the node it reaches. */
export interface ParsedEndpoint {
  /** HTTP(S) URL for settings: its secret end, if any, replaced by KEY_PLACEHOLDER; never user:pass. */
  url: string;
  /** WS(S) URL in the same form; derived from `url` when only an HTTP URL was pasted. */
  wsUrl: string;
  auth: AuthForm;
  /** The credentials to keep in SecretStorage (empty for auth 'none'). */
  secret: NodeSecret;
  /** Whether the path holds something that is secret unless the user marks the path public. */
  secretPath: boolean;
  /** Guessed from the host name; 'evm' when the host says nothing (ask the user to confirm). */
  protocol: Protocol;
  /** Whether `protocol` came from the host name rather than the default. */
  protocolFromHost: boolean;
  /** Network label from the host, e.g. "ethereum-mainnet". */
  network?: string;
}

export interface ParseOptions {
  /** The path is not a secret (only userinfo and query are). */
  publicPath?: boolean;
}

const SCHEMES = ['http:', 'https:', 'ws:', 'wss:'];
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;
/** Longer than any real endpoint; a bound on what is parsed and stored. */
export const MAX_ENDPOINT_LENGTH = 4096;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The pasted text as a message may quote it: redacted, when it is a URL or starts like one
 * without its scheme (a host name, an IP, a scheme cut short); undefined for anything else, since
 * a bare word (`$KEY` given where the URL goes) may be the key itself, which no URL rule masks.
 */
function quotable(text: string): string | undefined {
  const head = text.split(/[/\\?#]/)[0].replace(/^[^@]*@/, '');
  // An optional scheme cut short (`https:`), then an optional host name, IP or [IPv6] with its port.
  const urlLike = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^["']?([a-z][a-z0-9+.-]*:)?((localhost|[a-z0-9-]+(\.[a-z0-9-]+)+|\[[0-9a-f:.]+\])(:\d*)?)?$/i.test(head);
  return urlLike ? redactUrl(text) : undefined;
}

/** Whether text holds a C0 control character or DEL. */
const hasControl = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** Why a Basic username cannot be used, or undefined: HTTP Basic joins user and password with ':'. */
export function basicUsernameProblem(username: string): string | undefined {
  if (!username) return 'A username is needed: HTTP Basic sends a username with the password.';
  if (username.includes(':')) return "A username cannot contain ':': HTTP Basic sends username:password, so the server would split it there.";
  if (hasControl(username)) return 'A username cannot contain control characters.';
  return undefined;
}

/**
 * Parses a pasted endpoint. Throws EndpointError with a message fit for the user (the pasted text
 * is echoed only redacted).
 */
export function parseEndpoint(pasted: string, options: ParseOptions = {}): ParsedEndpoint {
  const text = pasted.trim();
  if (!text) throw new EndpointError("Paste the node's endpoint URL, e.g. https://ethereum-mainnet.core.example.com/<KEY>.");
  if (text.length > MAX_ENDPOINT_LENGTH) throw new EndpointError(`An endpoint URL is at most ${MAX_ENDPOINT_LENGTH} characters; this one has ${text.length}.`);
  const shown = quotable(text);
  if (/\s/.test(text)) throw new EndpointError(`An endpoint URL has no spaces${shown ? `: ${shown}` : '.'}`);
  // A client would send them percent-encoded: a key with an escape sequence pasted from a terminal is not the key.
  if (hasControl(text)) throw new EndpointError(`An endpoint URL has no control characters (an escape sequence copied from a terminal?)${shown ? `: ${shown}` : '.'}`);
  // URL parsers read a backslash as a slash: what it separates would be a path the rule misses.
  if (text.includes('\\')) throw new EndpointError(`An endpoint URL has no backslash (\\)${shown ? `: ${shown}` : '.'}`);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const what = shown ?? 'What was given (not shown: it may be a key)';
    throw new EndpointError(`${what} is not a URL: an endpoint starts with https:// or wss:// (http:// or ws:// for a local node)`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new EndpointError(`${redactUrl(text)} is not a valid URL.`);
  }
  if (!SCHEMES.includes(url.protocol)) {
    throw new EndpointError(`Unsupported scheme '${url.protocol.replace(/:$/, '')}' in ${redactUrl(text)}: a node endpoint's scheme is https or wss (http or ws for a local node).`);
  }
  const parts = splitUrl(text);
  if (!parts) throw new EndpointError(`${redactUrl(text)} is not a valid URL.`);
  if (!parts.host) throw new EndpointError(`${redactUrl(text)} has no host name.`); // https:///h/KEY: a URL parser would take h, written as the path, for the host
  // A fragment never reaches the node; one in a pasted endpoint is a mistake, not a part to keep.
  if (parts.fragment) throw new EndpointError(`${redactUrl(text)} has a #fragment: a node endpoint has none (a key goes in the path or the query).`);

  const { host } = parts;
  const at = parts.authority.lastIndexOf('@');
  let auth: AuthForm = 'none';
  const secret: NodeSecret = {};
  if (at >= 0) {
    const [user, ...rest] = parts.authority.slice(0, at).split(':');
    const username = safeDecode(user);
    if (!username) throw new EndpointError(`${redactUrl(text)} has a password but no username: HTTP Basic needs both (user:password@).`);
    const problem = basicUsernameProblem(username);
    if (problem) throw new EndpointError(`${redactUrl(text)}: ${problem}`);
    auth = 'basic';
    secret.username = username;
    secret.password = safeDecode(rest.join(':'));
  }

  const isWs = url.protocol === 'ws:' || url.protocol === 'wss:';
  const scheme = url.protocol;
  const httpScheme = scheme === 'ws:' ? 'http:' : scheme === 'wss:' ? 'https:' : scheme;
  // The provider's WebSocket route /ws is public; the HTTP form of the URL is the same without it.
  const wsRoute = isWs && isWsRoute(parts.scheme, 1, parts.path.split('/')[1] ?? '') ? '/ws' : '';
  const path = parts.path.slice(wsRoute.length);
  let publicPath: string;
  let tail: string;
  if (options.publicPath) {
    publicPath = path || '/';
    tail = parts.query;
  } else {
    publicPath = '/';
    tail = path.replace(/^\//, '') + parts.query;
  }
  const end = tail ? KEY_PLACEHOLDER : '';
  const httpUrl = `${httpScheme}//${host}${publicPath}${end}`;
  const wsForm = tail ? `${wsRoute}${publicPath}${end}` : parts.path || '/';
  const wsUrl = isWs ? `${scheme}//${host}${wsForm}` : deriveWsUrl(httpUrl);
  if (tail) {
    secret.tail = tail;
    if (auth === 'none') auth = 'key';
  }
  const { protocol, fromHost } = guessProtocol(url.hostname);
  return {
    url: httpUrl,
    wsUrl,
    auth,
    secret,
    secretPath: !options.publicPath && path.replace(/^\//, '') !== '',
    protocol,
    protocolFromHost: fromHost,
    network: guessNetwork(url.hostname),
  };
}

/**
 * The WebSocket URL of an HTTP endpoint. https: the provider's form, same host, wss scheme, path
 * /ws followed by the HTTP path (so the key goes after /ws/). http: a local dev node (anvil,
 * ganache) serves WebSocket on the same port and path, so only the scheme changes.
 */
export function deriveWsUrl(httpUrl: string): string {
  const m = /^(https?):\/\/([^/?#]+)([^?#]*)(\?[^#]*)?/i.exec(httpUrl.trim());
  if (!m) throw new EndpointError(`Cannot derive a WebSocket URL from ${redactUrl(httpUrl)}: it is not an http or https URL.`);
  const [, scheme, host, path, search = ''] = m;
  if (scheme.toLowerCase() === 'http') return `ws://${host}${path || '/'}${search}`;
  const rest = path.replace(/^\/+/, '');
  return `wss://${host}/ws${rest ? `/${rest}` : ''}${search}`;
}

/** Whether a URL points at this machine (a local dev node, never a provider). */
export function isLoopback(url: string): boolean {
  try {
    return LOOPBACK.test(new URL(url.split(KEY_PLACEHOLDER).join('k')).hostname);
  } catch {
    return false;
  }
}

/** The template with KEY_PLACEHOLDER filled: the tail verbatim, or a legacy key URL-encoded. */
function fill(template: string, tail: string | undefined, key: string | undefined, name: string): string {
  if (!template.includes(KEY_PLACEHOLDER)) return template;
  const value = tail ?? (key ? encodeURIComponent(key) : undefined);
  if (!value) throw new EndpointError(`Node '${name}' has no access key stored: enter it again (the URL holds ${KEY_PLACEHOLDER} where the key goes).`);
  return template.split(KEY_PLACEHOLDER).join(value);
}

/** Removes user:pass@ from a URL: Basic credentials only ever travel in the header. */
function withoutUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@?#]*@/i, '$1');
}

/**
 * A tail as a client sends it, and so as a node echoes it: a URL parser percent-encodes what may
 * not stand in a path or query as written (controls, `"`, `<`, non-ASCII) and resolves `..`.
 */
function sentForm(tail: string): string {
  try {
    const url = new URL(tail, 'http://h/');
    return url.pathname.slice(1) + url.search;
  } catch {
    return tail;
  }
}

/** A tail as written and as sent, when they differ. */
const tailForms = (tail: string) => [...new Set([tail, sentForm(tail)])];

/** The values inside a tail worth masking in free text: the tail, its long segments and query values, decoded too, as written and as sent. */
function tailSecrets(tail: string): string[] {
  const pieces = tailForms(tail).flatMap((form) => [form, ...form.split(/[/?&=]/).filter((p) => p.length >= 8)]);
  return [...pieces, ...pieces.map(safeDecode)];
}

/**
 * The short path segments and query values of a tail (shorter than the 8 characters tailSecrets
 * masks anywhere), decoded too, as written and as sent: masked where they stand as a whole value
 * or a URL part only, since anywhere they would hide ordinary words (`v1`, `rpc`). Query names
 * are not secrets.
 */
export function shortTailParts(tail: string): string[] {
  const parts = tailForms(tail).flatMap((form) => {
    const [path, query = ''] = form.split(/\?(.*)/s);
    return [...path.split('/'), ...query.split('&').map((pair) => pair.slice(pair.indexOf('=') + 1))].filter((p) => p && p.length < 8);
  });
  return [...new Set([...parts, ...parts.map(safeDecode)])];
}

/** A node ready to call: the secret end put in its URLs, Basic credentials as a header. */
export function resolveEndpoint(config: NodeConfig, secret: NodeSecret): ResolvedEndpoint {
  const headers: Record<string, string> = {};
  const secrets: string[] = [];
  const wsTemplate = config.wsUrl ?? deriveWsUrl(config.url);
  if (config.auth === 'key' && !config.url.includes(KEY_PLACEHOLDER)) {
    throw new EndpointError(`Node '${config.name}' uses an access key but its URL has no ${KEY_PLACEHOLDER} where the key goes.`);
  }
  const httpUrl = fill(withoutUserinfo(config.url), secret.tail, secret.key, config.name);
  const wsUrl = fill(withoutUserinfo(wsTemplate), secret.wsTail ?? secret.tail, secret.key, config.name);
  for (const tail of [secret.tail, secret.wsTail]) if (tail) secrets.push(...tailSecrets(tail));
  if (secret.key) secrets.push(secret.key, encodeURIComponent(secret.key));
  if (config.auth === 'basic') {
    const problem = basicUsernameProblem(secret.username ?? '');
    if (!secret.username) throw new EndpointError(`Node '${config.name}' uses a username and password, but none is stored: enter them again.`);
    if (problem) throw new EndpointError(`Node '${config.name}': ${problem}`);
    const token = Buffer.from(`${secret.username}:${secret.password ?? ''}`, 'utf8').toString('base64');
    headers.Authorization = `Basic ${token}`;
    secrets.push(token);
    if (secret.password) secrets.push(secret.password);
  }
  return { httpUrl, wsUrl, headers, auth: config.auth, secrets: [...new Set(secrets.filter(Boolean))] };
}

/** What comes with a URL given by hand (a command line, the local node's chain) besides the URL itself. */
export interface UrlCredentials {
  /** The path holds no secret (userinfo and query still do); otherwise everything after the host is secret. */
  publicPath?: boolean;
  /** HTTP Basic given apart from the URL (a URL that holds user:password@ as well is refused). */
  username?: string;
  password?: string;
}

/** A URL given by hand, ready to call, with what redaction needs to know of it. */
export interface UrlEndpoint extends ResolvedEndpoint {
  /** The URL is ws:// or wss://: the node is reached over WebSocket. */
  isWs: boolean;
  /** Pieces too short to mask anywhere (a path segment such as `v1`): masked where they stand whole or as a URL part. */
  wholeSecrets: string[];
  /** The URLs shown in full when the path is public (their key placeholder dropped). */
  publicUrls: string[];
}

/**
 * The one way a URL becomes an endpoint: the URL checked by the rules of parseEndpoint (its
 * messages echo it only redacted), its secret end and Basic credentials (from its user:password@
 * or given apart) put where a client sends them, every secret listed. Throws EndpointError.
 */
export function endpointFromUrl(url: string, credentials: UrlCredentials = {}): UrlEndpoint {
  const publicPath = credentials.publicPath === true;
  const parsed = parseEndpoint(url, { publicPath });
  let secret = parsed.secret;
  let auth = parsed.auth;
  if (credentials.username !== undefined) {
    if (auth === 'basic') throw new EndpointError(`${redactUrl(url)} holds user:password@ and a username is given apart: give the credentials once.`);
    const problem = basicUsernameProblem(credentials.username);
    if (problem) throw new EndpointError(problem);
    // The secret end of the URL stays: a key in the path and Basic may go together.
    secret = { ...secret, username: credentials.username, password: credentials.password ?? '' };
    auth = 'basic';
  }
  const endpoint = resolveEndpoint({ id: 'url', name: 'the URL', protocol: parsed.protocol, url: parsed.url, wsUrl: parsed.wsUrl, auth, publicPath }, secret);
  // Userinfo is secret by the rule, the username too, and as written (percent-encoded) as well:
  // a program given the URL echoes it in forms of its own (gnd: "user: NAME").
  const authority = splitUrl(url.trim())?.authority ?? '';
  const userinfo = parsed.auth === 'basic' ? [...authority.slice(0, authority.lastIndexOf('@')).split(/:(.*)/s), parsed.secret.username] : [];
  return {
    ...endpoint,
    secrets: [...new Set([...endpoint.secrets, ...userinfo].filter((s): s is string => !!s))],
    isWs: /^wss?:/i.test(url.trim()),
    wholeSecrets: shortTailParts(secret.tail ?? ''),
    publicUrls: publicPath ? [parsed.url, parsed.wsUrl].map((u) => u.split(KEY_PLACEHOLDER).join('')) : [],
  };
}

/** Registers an endpoint made from a URL for redaction: its secrets masked, its public URLs shown, in all text from now on. */
export function registerUrlEndpoint(endpoint: UrlEndpoint): void {
  for (const s of endpoint.secrets) registerSecret(s);
  for (const part of endpoint.wholeSecrets) registerSecret(part, { whole: true });
  for (const u of endpoint.publicUrls) registerPublicUrl(u);
}

/**
 * The endpoint's HTTP (or WebSocket) URL with its Basic credentials as user:password@: for a
 * program that takes them only there (gnd), and for the user who asked to copy them. The URL
 * itself when it has none.
 */
export function urlWithUserinfo(endpoint: Pick<ResolvedEndpoint, 'httpUrl' | 'wsUrl' | 'headers'>, which: 'http' | 'ws' = 'http'): string {
  const plain = which === 'ws' ? endpoint.wsUrl : endpoint.httpUrl;
  const basic = /^Basic (.+)$/.exec(endpoint.headers.Authorization ?? '');
  if (!basic) return plain;
  const [username, password] = Buffer.from(basic[1], 'base64').toString('utf8').split(/:(.*)/s);
  const url = new URL(plain);
  url.username = encodeURIComponent(username);
  url.password = encodeURIComponent(password ?? '');
  return url.href;
}

/**
 * A node's URL fit to show: its secret end as ***, userinfo dropped, and any literal part the
 * rule calls secret masked too. KEY_PLACEHOLDER right after a public path (no `/`) stands for a query.
 */
export function displayUrl(config: Pick<NodeConfig, 'url' | 'wsUrl' | 'publicPath'>, which: 'http' | 'ws' = 'http'): string {
  const url = which === 'ws' ? (config.wsUrl ?? deriveWsUrl(config.url)) : config.url;
  const shown = url.split(`/${KEY_PLACEHOLDER}`).join(`/${REDACTED}`).split(KEY_PLACEHOLDER).join(`?${REDACTED}`);
  return redactUrl(withoutUserinfo(shown), [], { publicPath: config.publicPath === true });
}

/** Whether a URL as kept in settings holds, in the clear, a part the rule calls secret. */
function holdsSecret(template: string, publicPath: boolean): boolean {
  const parts = splitUrl(template);
  if (!parts) return false;
  if (parts.authority.includes('@') || parts.query.length > 1 || parts.fragment.length > 1) return true;
  if (publicPath) return false;
  return parts.path.split('/').some((s, i) => s !== '' && s !== KEY_PLACEHOLDER && !isWsRoute(parts.scheme, i, s));
}

/** Whether the node's URLs in settings hold a secret in the clear (written by hand, or by an earlier version). */
export function settingsHoldSecret(config: Pick<NodeConfig, 'url' | 'wsUrl' | 'publicPath'>): boolean {
  return [config.url, config.wsUrl].some((u) => u !== undefined && holdsSecret(u, config.publicPath === true));
}

/**
 * The node with every secret moved out of its URLs into its secret (merged with `secret`, the one
 * stored), or undefined when its settings hold none. Throws EndpointError when a URL cannot be
 * parsed or needs a stored key that is missing.
 */
export function moveSecretsOut(config: NodeConfig, secret: NodeSecret): { config: NodeConfig; secret: NodeSecret } | undefined {
  if (!settingsHoldSecret(config)) return undefined;
  const options = { publicPath: config.publicPath === true };
  const http = parseEndpoint(fill(config.url, secret.tail, secret.key, config.name), options);
  const ws = config.wsUrl === undefined ? undefined : parseEndpoint(fill(config.wsUrl, secret.wsTail ?? secret.tail, secret.key, config.name), options);
  const basic = [http, ws].find((p) => p?.auth === 'basic')?.secret;
  const moved: NodeSecret = {};
  if (http.secret.tail) moved.tail = http.secret.tail;
  if (ws?.secret.tail && ws.secret.tail !== http.secret.tail) moved.wsTail = ws.secret.tail;
  const username = basic?.username ?? (config.auth === 'basic' ? secret.username : undefined);
  if (username) {
    moved.username = username;
    const password = basic ? basic.password : secret.password;
    if (password) moved.password = password;
  }
  const auth: AuthForm = username ? 'basic' : moved.tail || moved.wsTail ? 'key' : 'none';
  const next: NodeConfig = { ...config, url: http.url, auth };
  if (ws) next.wsUrl = ws.wsUrl;
  return { config: next, secret: moved };
}

/** Host words that name a protocol family; anything else on a provider host defaults to EVM. */
const PROTOCOL_WORDS: [RegExp, Protocol][] = [
  [/beacon/, 'beacon'],
  [/solana/, 'solana'],
  [/starknet/, 'starknet'],
  [/bitcoin|litecoin|dogecoin|\bbtc\b|\bbch\b|\bltc\b|\bdoge\b/, 'utxo'],
  [
    /ethereum|\beth\b|polygon|matic|\bbsc\b|bnb|arbitrum|optimism|\bop\b|\bbase\b|avalanche|\bavax\b|fantom|gnosis|zksync|scroll|linea|ronin|cronos|celo|moonbeam|harmony|kaia|klaytn|aurora|blast|mantle|sonic|berachain|hyperliquid|unichain|\bsei\b|\bzora\b/,
    'evm',
  ],
];

function guessProtocol(hostname: string): { protocol: Protocol; fromHost: boolean } {
  const words = hostname.toLowerCase().replace(/[.-]/g, ' ');
  for (const [pattern, protocol] of PROTOCOL_WORDS) {
    if (pattern.test(words)) return { protocol, fromHost: true };
  }
  return { protocol: 'evm', fromHost: false };
}

/** The first label of `<network>.core.<host>`, or a first label that names a chain. */
function guessNetwork(hostname: string): string | undefined {
  const labels = hostname.toLowerCase().split('.');
  if (labels.length < 3 || LOOPBACK.test(hostname) || /^\d+$/.test(labels[labels.length - 1])) return undefined;
  const first = labels[0];
  if (labels[1] === 'core') return first;
  if (/(^|-)nd-\d/.test(first)) return undefined; // a dedicated node's id (nd-…, beacon-nd-…), not a network
  return guessProtocol(first).fromHost ? first : undefined;
}
