/**
 * "Copy as curl": the request as a POSIX shell command line. Redacted unless the user asks for
 * the secrets: the key in the URL becomes ***, Basic credentials become -u 'user:***'.
 */
import type { ResolvedEndpoint } from './endpoint';
import { REDACTED, redactText, redactUrl } from '../redact';

export interface CurlOptions {
  /** Put the real key and password in the command (default false). */
  revealSecrets?: boolean;
}

/** Single-quotes a word for sh/bash/zsh. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The username and password behind an `Authorization: Basic …` header. */
export function basicCredentials(headers: Record<string, string>): { username: string; password: string } | undefined {
  const name = Object.keys(headers).find((h) => h.toLowerCase() === 'authorization');
  const m = name ? /^Basic\s+(\S+)$/i.exec(headers[name]) : null;
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? { username: decoded, password: '' } : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function toCurl(endpoint: ResolvedEndpoint, payload: string | object, options: CurlOptions = {}): string {
  const reveal = options.revealSecrets === true;
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const parts = ['curl', '-sS', '-X', 'POST', shellQuote(reveal ? endpoint.httpUrl : redactUrl(endpoint.httpUrl, endpoint.secrets))];
  parts.push('-H', shellQuote('Content-Type: application/json'));
  const basic = basicCredentials(endpoint.headers);
  if (basic) parts.push('-u', shellQuote(`${basic.username}:${reveal ? basic.password : REDACTED}`));
  for (const [name, value] of Object.entries(endpoint.headers)) {
    if (name.toLowerCase() === 'authorization' && basic) continue;
    parts.push('-H', shellQuote(`${name}: ${reveal ? value : redactText(value, endpoint.secrets)}`));
  }
  parts.push('--data', shellQuote(reveal ? body : redactText(body, endpoint.secrets)));
  return parts.join(' ');
}
