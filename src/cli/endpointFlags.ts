/**
 * The node options every CLI command shares: an endpoint URL (its path, query and userinfo are
 * secret unless CHAINDECK_PUBLIC_PATH=1 says the path is not, and registered for redaction),
 * `--user NAME` with the password from CHAINDECK_PASSWORD (never from a flag or the URL), and
 * `--timeout MS`.
 */
import { basicUsernameProblem, parseEndpoint, resolveEndpoint } from '../core/nodes/endpoint';
import { KEY_PLACEHOLDER, type NodeConfig, type NodeSecret } from '../core/nodes/model';
import type { AuthForm, ResolvedEndpoint } from '../core/rpc/endpoint';
import { registerPublicUrl, registerSecret } from '../core/redact';
import { Deadline, MAX_TIMEOUT_MS } from '../core/rpc/deadline';

export const PASSWORD_ENV = 'CHAINDECK_PASSWORD';
/** Set to 1 when the endpoint's path holds no secret (e.g. /rpc), so it is shown in full. */
export const PUBLIC_PATH_ENV = 'CHAINDECK_PUBLIC_PATH';

/** The help line about redaction that every command with an endpoint shows. */
export const ENDPOINT_HELP = `Its path, query and user:password@ are secret and shown only as ***;
                  set ${PUBLIC_PATH_ENV}=1 when the path holds no key (e.g. /rpc).`;

/** A command line that cannot be run as written: exit status 2, with the usage. */
export class UsageError extends Error {}

/** Refuses --password: a password on the command line shows in the process list and the shell history. */
export function refusePasswordFlag(name: string): void {
  if (name === 'password') {
    throw new UsageError(`--password is not accepted: a password on the command line shows in the process list and the shell history. Set the environment variable ${PASSWORD_ENV} and pass --user NAME.`);
  }
}

/** What --timeout accepts, as the usage texts say it. */
export const TIMEOUT_RULE = `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (24 h)`;

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

/**
 * The endpoint the flags describe, every secret in it registered for redaction. Refuses a
 * password in the URL, and a key in the URL together with --user.
 */
export function endpointFromFlags(url: string, user: string | undefined, env: NodeJS.ProcessEnv): { endpoint: ResolvedEndpoint; isWs: boolean } {
  const publicEnv = env[PUBLIC_PATH_ENV];
  if (publicEnv !== undefined && publicEnv !== '' && publicEnv !== '0' && publicEnv !== '1') {
    throw new UsageError(`${PUBLIC_PATH_ENV} is 1 (the path of the URL holds no secret) or 0, not '${publicEnv}'`);
  }
  const publicPath = publicEnv === '1';
  const parsed = parseEndpoint(url, { publicPath });
  registerSecret(parsed.secret.tail);
  registerSecret(parsed.secret.password);
  if (publicPath) for (const u of [parsed.url, parsed.wsUrl]) registerPublicUrl(u.split(KEY_PLACEHOLDER).join(''));
  if (parsed.auth === 'basic') {
    throw new UsageError(`put the username in --user and the password in the environment variable ${PASSWORD_ENV}, not in the URL`);
  }
  let secret: NodeSecret = parsed.secret;
  let auth: AuthForm = parsed.auth;
  if (user !== undefined) {
    const problem = basicUsernameProblem(user);
    if (problem) throw new UsageError(`--user: ${problem}`);
    const password = env[PASSWORD_ENV];
    if (password === undefined) throw new UsageError(`--user needs the password in the environment variable ${PASSWORD_ENV}`);
    registerSecret(password);
    // The secret end of the URL stays: a key in the path and Basic may go together.
    secret = { ...parsed.secret, username: user, password };
    auth = 'basic';
  }
  const isWs = /^wss?:/i.test(url);
  const config: NodeConfig = { id: 'cli', name: 'command line', protocol: parsed.protocol, url: parsed.url, wsUrl: parsed.wsUrl, auth, publicPath };
  const endpoint = resolveEndpoint(config, secret);
  for (const s of endpoint.secrets) registerSecret(s);
  return { endpoint, isWs };
}
