/**
 * The options and environment every command that reaches a node shares: its URL (`--rpc`, or
 * `--url`, the same; its path, query and userinfo are secret unless CHAINDECK_PUBLIC_PATH=1 says
 * the path is not, and registered for redaction), `--user NAME` with the password from
 * CHAINDECK_PASSWORD (never from a flag or the URL), `--timeout MS` as one deadline for the whole
 * command, and the node client they make.
 */
import { basicUsernameProblem, EndpointError, endpointFromUrl, registerUrlEndpoint, type UrlCredentials, type UrlEndpoint } from '../core/nodes/endpoint';
import type { RpcClient } from '../core/rpc/client';
import { Deadline, DEFAULT_MAX_RESPONSE_MB, MAX_TIMEOUT_MS } from '../core/rpc/deadline';
import { DEFAULT_TIMEOUT_MS } from '../core/rpc/types';
import type { WsRpcClient } from '../core/rpc/ws';
import { UsageError, type OptionSpec } from './args';
import type { Row } from './help';
import { CLI_HINTS, MAX_RESPONSE_ENV } from './knobs';

export const PASSWORD_ENV = 'CHAINDECK_PASSWORD';
/** Set to 1 when the endpoint's path holds no secret (e.g. /rpc), so it is shown in full. */
export const PUBLIC_PATH_ENV = 'CHAINDECK_PUBLIC_PATH';

/** What the usage of every command with an endpoint says about its redaction. */
const ENDPOINT_HELP = `Its path, query and user:password@ are secret and shown only as ***;
set ${PUBLIC_PATH_ENV}=1 when the path holds no key (e.g. /rpc).`;

/** --password is refused: a password on the command line shows in the process list and the shell history. */
export const REFUSED_PASSWORD = {
  password: `--password is not accepted: a password on the command line shows in the process list and the shell history. Set the environment variable ${PASSWORD_ENV} and pass --user NAME.`,
};

const USER_OPTION = {
  type: 'string',
  value: 'NAME',
  help: `HTTP Basic username; the password is read from the environment variable ${PASSWORD_ENV} (never from a flag or the URL)`,
} satisfies OptionSpec;

/**
 * The node's URL under the one name every command gives it, --rpc (`what` says which URLs the
 * command takes), with --url as another name for it; and --user.
 */
export function nodeOptions(what: string) {
  return {
    rpc: { type: 'string', value: 'URL', help: `${what}; --url is the same.\n${ENDPOINT_HELP}` },
    url: { type: 'string', aliasOf: 'rpc' },
    user: USER_OPTION,
  } as const satisfies Record<string, OptionSpec>;
}

/** --rpc (or --url) as given: a usage error when it is missing or empty. */
export function rpcFlag(value: string | undefined): string {
  if (!value) throw new UsageError('--rpc is required');
  return value;
}

/** What --timeout accepts, as the usage texts say it. */
export const TIMEOUT_RULE = `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (24 h)`;

export const TIMEOUT_OPTION = {
  type: 'string',
  value: 'MS',
  help: `give up the whole command after MS, ${TIMEOUT_RULE}: every request, retry and Retry-After wait counts against it (default: ${DEFAULT_TIMEOUT_MS} for each request)`,
} satisfies OptionSpec;

/** The cap on replies, which every command that reads them keeps. */
export const RESPONSE_CAP_ENV: Row = [MAX_RESPONSE_ENV, `refuse a reply body or WebSocket message above this many MiB, 1 to 4096 (default ${DEFAULT_MAX_RESPONSE_MB})`];

/** The environment of a command with an endpoint. */
export const ENDPOINT_ENV: readonly Row[] = [
  [PASSWORD_ENV, 'the password for --user'],
  [PUBLIC_PATH_ENV, "1 when the endpoint's path holds no secret, so it is shown in full; 0 or unset: shown as ***"],
  RESPONSE_CAP_ENV,
];

/**
 * `--timeout MS`: whole milliseconds from 1 to 24 h, digits only (no 0, sign, fraction, exponent
 * or unit), or undefined when not given.
 */
export function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(ms >= 1 && ms <= MAX_TIMEOUT_MS)) throw new UsageError(`--timeout needs ${TIMEOUT_RULE}, not '${value}'`);
  return ms;
}

/** The one deadline of a command given --timeout: all its requests, retries and pages share it. */
export function commandDeadline(timeoutMs: number | undefined): Deadline | undefined {
  return timeoutMs === undefined ? undefined : new Deadline(timeoutMs);
}

/** The node a command calls: its endpoint, and whether it is reached over WebSocket. */
export type NodeTarget = UrlEndpoint;

/**
 * The endpoint the flags describe (core's endpointFromUrl), every secret in it registered for
 * redaction. Refuses (as a usage error) a URL that is not an endpoint, a password in the URL (it
 * shows in the process list and the shell history), and a bad --user.
 */
export function endpointFromFlags(url: string, user: string | undefined, env: NodeJS.ProcessEnv): NodeTarget {
  const publicEnv = env[PUBLIC_PATH_ENV];
  if (publicEnv !== undefined && publicEnv !== '' && publicEnv !== '0' && publicEnv !== '1') {
    throw new UsageError(`${PUBLIC_PATH_ENV} is 1 (the path of the URL holds no secret) or 0, not '${publicEnv}'`);
  }
  const publicPath = publicEnv === '1';
  // The URL on its own first: user:password@ in it is refused whatever else is given, saying where they go.
  const plain = usableEndpoint(url, { publicPath });
  registerUrlEndpoint(plain);
  if (plain.auth === 'basic') {
    throw new UsageError(`put the username in --user and the password in the environment variable ${PASSWORD_ENV}, not in the URL`);
  }
  if (user === undefined) return plain;
  const problem = basicUsernameProblem(user);
  if (problem) throw new UsageError(`--user: ${problem}`);
  const password = env[PASSWORD_ENV];
  if (password === undefined) throw new UsageError(`--user needs the password in the environment variable ${PASSWORD_ENV}`);
  const target = usableEndpoint(url, { publicPath, username: user, password });
  registerUrlEndpoint(target);
  return target;
}

/** core's endpointFromUrl, its refusal a usage error. */
function usableEndpoint(url: string, credentials: UrlCredentials): NodeTarget {
  try {
    return endpointFromUrl(url, credentials);
  } catch (err) {
    if (err instanceof EndpointError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * Runs `work` with a client of the node (WebSocket for ws:// and wss://, HTTP otherwise) under
 * the command's one deadline, then closes it so the process can exit. The clients are loaded
 * here, when a command calls a node, not when the CLI starts.
 */
export async function withNodeClient<T>(target: NodeTarget, timeoutMs: number | undefined, work: (client: RpcClient | WsRpcClient) => Promise<T>): Promise<T> {
  // The WebSocket client (and the ws package) only for a ws:// or wss:// endpoint.
  const [{ closeIdleConnections }, { RpcClient }, wsModule] = await Promise.all([
    import('../core/rpc/http'),
    import('../core/rpc/client'),
    target.isWs ? import('../core/rpc/ws') : undefined,
  ]);
  // The deadline starts once the clients are loaded: loading is not the node's time.
  const options = { timeoutMs, deadline: commandDeadline(timeoutMs), hints: CLI_HINTS };
  const ws = wsModule ? new wsModule.WsRpcClient(target, { ...options, pingIntervalMs: 0 }) : undefined;
  const client = ws ?? new RpcClient(target, options);
  try {
    return await work(client);
  } finally {
    await ws?.close();
    closeIdleConnections();
  }
}
