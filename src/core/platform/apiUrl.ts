/**
 * The platform API's base URL: its default and the check of one the user gives. Apart from the
 * client, so what only checks a URL (the CLI's arguments, its help) does not load the HTTP stack.
 */
import { isLoopback } from '../nodes/endpoint';
import { redactUrl } from '../redact';
import { platformError } from './errors';

export const DEFAULT_API_URL = 'https://api.chainstack.com';

/** Checks and normalises a base URL: https, or http to this machine only (the key travels in it). */
export function normaliseApiUrl(raw: string): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw platformError('invalid-request', `The platform API URL ${JSON.stringify(redactUrl(text))} is not a URL: it is the API's base, e.g. ${DEFAULT_API_URL}.`, []);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(text))) {
    throw platformError(
      'invalid-request',
      `The platform API URL must use https (http only for a server on this machine), not ${redactUrl(text)}: the API key travels with every request.`,
      [],
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw platformError('invalid-request', `The platform API URL is a plain base URL without credentials, query or fragment, not ${redactUrl(text)}.`, []);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
