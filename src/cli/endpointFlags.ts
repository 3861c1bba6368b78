/**
 * The node options every CLI command shares: an endpoint URL (an access key in its path is
 * used and registered for redaction), `--user NAME` with the password from CHAINDECK_PASSWORD
 * (never from a flag or the URL), and `--timeout MS`.
 */
import { parseEndpoint, resolveEndpoint } from '../core/nodes/endpoint';
import type { AuthForm, NodeConfig, NodeSecret, ResolvedEndpoint } from '../core/nodes/model';
import { registerSecret } from '../core/redact';
import { Deadline, MAX_TIMEOUT_MS } from '../core/rpc/deadline';

export const PASSWORD_ENV = 'CHAINDECK_PASSWORD';

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
  const parsed = parseEndpoint(url);
  registerSecret(parsed.secret.key);
  registerSecret(parsed.secret.password);
  if (parsed.auth === 'basic') {
    throw new UsageError(`put the username in --user and the password in the environment variable ${PASSWORD_ENV}, not in the URL`);
  }
  let secret: NodeSecret = parsed.secret;
  let auth: AuthForm = parsed.auth;
  if (user !== undefined) {
    if (parsed.auth === 'key') throw new UsageError('the URL already holds an access key: use either the key or --user, not both');
    const password = env[PASSWORD_ENV];
    if (password === undefined) throw new UsageError(`--user needs the password in the environment variable ${PASSWORD_ENV}`);
    registerSecret(password);
    secret = { username: user, password };
    auth = 'basic';
  }
  const isWs = /^wss?:/i.test(url);
  const config: NodeConfig = { id: 'cli', name: 'command line', protocol: parsed.protocol, url: parsed.url, wsUrl: parsed.wsUrl, auth };
  const endpoint = resolveEndpoint(config, secret);
  for (const s of endpoint.secrets) registerSecret(s);
  return { endpoint, isWs };
}
