/**
 * The endpoint a client talks to: real URLs and headers, how it authenticates, and the secrets
 * every message about it must be scrubbed of. Where it comes from (a stored node, CLI flags) is
 * the caller's business.
 */

/** none: open endpoint; key: form A, a secret in the URL (path or query); basic: form B, HTTP Basic. */
export type AuthForm = 'none' | 'key' | 'basic';

/** A node ready to be called: real URLs and headers, plus what may be shown. */
export interface ResolvedEndpoint {
  /** URL with the key in it: never shown, never logged. */
  httpUrl: string;
  wsUrl: string;
  headers: Record<string, string>;
  auth: AuthForm;
  /** The secret values, so any text can be scrubbed of them. */
  secrets: string[];
}
