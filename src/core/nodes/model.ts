/**
 * The node model. What is stored in settings (NodeConfig) never holds a credential: a form-A
 * access key is replaced by the KEY_PLACEHOLDER in the URL path, and form-B username/password
 * live in SecretStorage under the node's `id` (the reference).
 */

export type Protocol = 'evm' | 'beacon' | 'utxo' | 'solana' | 'starknet' | 'other';

/** none: open endpoint; key: form A, access key in the URL path; basic: form B, HTTP Basic. */
export type AuthForm = 'none' | 'key' | 'basic';

/** Placeholder that stands for the access key in a stored URL. */
export const KEY_PLACEHOLDER = '{key}';

/** One configured node as kept in settings (`chaindeck.nodes`). */
export interface NodeConfig {
  /** Stable reference for SecretStorage; survives renames. */
  id: string;
  name: string;
  protocol: Protocol;
  /** Network label, e.g. "ethereum-mainnet"; free text. */
  network?: string;
  /** HTTPS (or local HTTP) JSON-RPC URL; for auth 'key' it contains KEY_PLACEHOLDER. */
  url: string;
  /** WSS URL; derived from `url` when absent. */
  wsUrl?: string;
  auth: AuthForm;
}

/** Credentials of one node, kept only in SecretStorage. */
export interface NodeSecret {
  key?: string;
  username?: string;
  password?: string;
}

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
