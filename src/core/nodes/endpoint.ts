/**
 * Endpoints as pasted from a provider's console, turned into what settings may keep (no secret)
 * plus the secret for SecretStorage, and back into callable URLs and headers.
 *
 * Form A: the access key is a path segment: https://<network>.core.<host>/<KEY>, and
 * wss://<network>.core.<host>/ws/<KEY>. Form B: HTTP Basic, pasted as https://user:pass@host/….
 */
import { looksLikeKey, REDACTED, redactUrl } from '../redact';
import { KEY_PLACEHOLDER, type AuthForm, type NodeConfig, type NodeSecret, type Protocol, type ResolvedEndpoint } from './model';

export class EndpointError extends Error {
  override readonly name = 'EndpointError';
}

/** What a pasted endpoint says about the node it reaches. */
export interface ParsedEndpoint {
  /** HTTP(S) URL for settings: the key, if any, replaced by KEY_PLACEHOLDER; never user:pass. */
  url: string;
  /** WS(S) URL in the same form; derived from `url` when only an HTTP URL was pasted. */
  wsUrl: string;
  auth: AuthForm;
  /** The credential to keep in SecretStorage (empty for auth 'none'). */
  secret: NodeSecret;
  /** Guessed from the host name; 'evm' when the host says nothing (ask the user to confirm). */
  protocol: Protocol;
  /** Whether `protocol` came from the host name rather than the default. */
  protocolFromHost: boolean;
  /** Network label from the host, e.g. "ethereum-mainnet". */
  network?: string;
}

const SCHEMES = ['http:', 'https:', 'ws:', 'wss:'];
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;

/** Path segments, keeping empty ones out. */
function segments(pathname: string): string[] {
  return pathname.split('/').filter(Boolean);
}

/** The URL rebuilt from parts, so a `{key}` placeholder in the path stays readable. */
function build(scheme: string, host: string, parts: string[], search: string, trailingSlash: boolean): string {
  const path = parts.length ? `/${parts.join('/')}${trailingSlash ? '/' : ''}` : '/';
  return `${scheme}//${host}${path}${search}`;
}

/**
 * Parses a pasted endpoint. Throws EndpointError with a message fit for the user (the pasted text
 * is echoed only redacted).
 */
export function parseEndpoint(pasted: string): ParsedEndpoint {
  const text = pasted.trim();
  if (!text) throw new EndpointError("Paste the node's endpoint URL, e.g. https://ethereum-mainnet.core.example.com/<KEY>.");
  if (/\s/.test(text)) throw new EndpointError(`An endpoint URL has no spaces: ${redactUrl(text)}`);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new EndpointError(`${redactUrl(text)} is not a URL: an endpoint starts with https:// or wss:// (http:// or ws:// for a local node)`);
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
  if (!url.hostname) throw new EndpointError(`${redactUrl(text)} has no host name.`);

  const isWs = url.protocol === 'ws:' || url.protocol === 'wss:';
  const parts = segments(url.pathname);
  // In a wss form-A URL the key follows /ws; the HTTP form is the same path without it.
  const httpParts = isWs && parts[0] === 'ws' ? parts.slice(1) : parts;
  const keyIndex = httpParts.findIndex((s) => looksLikeKey(decodeURIComponent(s)));
  const hasUser = url.username !== '' || url.password !== '';
  if (hasUser && keyIndex >= 0) {
    throw new EndpointError(`${redactUrl(text)} holds both a username:password and an access key; paste one form: the URL with the key, or the URL with username and password.`);
  }

  let auth: AuthForm = 'none';
  const secret: NodeSecret = {};
  if (hasUser) {
    if (!url.username) throw new EndpointError(`${redactUrl(text)} has a password but no username.`);
    auth = 'basic';
    secret.username = decodeURIComponent(url.username);
    secret.password = decodeURIComponent(url.password);
  } else if (keyIndex >= 0) {
    auth = 'key';
    secret.key = decodeURIComponent(httpParts[keyIndex]);
    httpParts[keyIndex] = KEY_PLACEHOLDER;
  }

  const trailing = url.pathname.length > 1 && url.pathname.endsWith('/');
  const httpScheme = url.protocol === 'ws:' ? 'http:' : url.protocol === 'wss:' ? 'https:' : url.protocol;
  const httpUrl = build(httpScheme, url.host, httpParts, url.search, trailing);
  const wsUrl = isWs ? build(url.protocol, url.host, isWs && parts[0] === 'ws' ? ['ws', ...httpParts] : httpParts, url.search, trailing) : deriveWsUrl(httpUrl);
  const { protocol, fromHost } = guessProtocol(url.hostname);
  return { url: httpUrl, wsUrl, auth, secret, protocol, protocolFromHost: fromHost, network: guessNetwork(url.hostname) };
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
    return LOOPBACK.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

function substituteKey(url: string, key: string | undefined, name: string): string {
  if (!url.includes(KEY_PLACEHOLDER)) return url;
  if (!key) throw new EndpointError(`Node '${name}' has no access key stored: enter it again (the URL holds ${KEY_PLACEHOLDER} where the key goes).`);
  return url.split(KEY_PLACEHOLDER).join(encodeURIComponent(key));
}

/** Removes user:pass@ from a URL: Basic credentials only ever travel in the header. */
function withoutUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@?#]*@/i, '$1');
}

/** A node ready to call: the key put in its URLs, Basic credentials as a header. */
export function resolveEndpoint(config: NodeConfig, secret: NodeSecret): ResolvedEndpoint {
  const headers: Record<string, string> = {};
  const secrets: string[] = [];
  const wsTemplate = config.wsUrl ?? deriveWsUrl(config.url);
  let httpUrl = withoutUserinfo(config.url);
  let wsUrl = withoutUserinfo(wsTemplate);
  if (config.auth === 'key') {
    if (!config.url.includes(KEY_PLACEHOLDER)) {
      throw new EndpointError(`Node '${config.name}' uses an access key but its URL has no ${KEY_PLACEHOLDER} where the key goes.`);
    }
    httpUrl = substituteKey(httpUrl, secret.key, config.name);
    wsUrl = substituteKey(wsUrl, secret.key, config.name);
    secrets.push(secret.key!, encodeURIComponent(secret.key!));
  } else if (config.auth === 'basic') {
    if (!secret.username) throw new EndpointError(`Node '${config.name}' uses a username and password, but none is stored: enter them again.`);
    const token = Buffer.from(`${secret.username}:${secret.password ?? ''}`, 'utf8').toString('base64');
    headers.Authorization = `Basic ${token}`;
    secrets.push(token);
    if (secret.password) secrets.push(secret.password);
  }
  return { httpUrl, wsUrl, headers, auth: config.auth, secrets: [...new Set(secrets)] };
}

/** A node's URL fit to show: the key as ***, any other secret-looking part masked too. */
export function displayUrl(config: Pick<NodeConfig, 'url' | 'wsUrl'>, which: 'http' | 'ws' = 'http'): string {
  const url = which === 'ws' ? (config.wsUrl ?? deriveWsUrl(config.url)) : config.url;
  return redactUrl(withoutUserinfo(url.split(KEY_PLACEHOLDER).join(REDACTED)));
}

/** Host words that name a protocol family; anything else on a provider host defaults to EVM. */
const PROTOCOL_WORDS: [RegExp, Protocol][] = [
  [/beacon/, 'beacon'],
  [/solana/, 'solana'],
  [/starknet/, 'starknet'],
  [/bitcoin|litecoin|dogecoin|\bbtc\b|\bbch\b|\bltc\b|\bdoge\b/, 'utxo'],
  [/ethereum|\beth\b|polygon|matic|\bbsc\b|bnb|arbitrum|optimism|\bop\b|\bbase\b|avalanche|\bavax\b|fantom|gnosis|zksync|scroll|linea|ronin|cronos|celo|moonbeam|harmony|kaia|klaytn|aurora|blast|mantle|sonic|berachain|hyperliquid|unichain|\bsei\b|\bzora\b/, 'evm'],
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
  if (/^nd-\d/.test(first)) return undefined; // a dedicated node's id, not a network
  return guessProtocol(first).fromHost ? first : undefined;
}
