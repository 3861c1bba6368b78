/**
 * The node model. What is stored in settings (NodeConfig) never holds a credential: the secret
 * end of a URL (its path, unless marked public, and its query; see redact.ts for the rule) is
 * replaced by the KEY_PLACEHOLDER, and it and form-B username/password live in SecretStorage
 * under the node's `id` (the reference).
 */
import type { AuthForm } from '../rpc/endpoint';

export type Protocol = 'evm' | 'beacon' | 'utxo' | 'solana' | 'starknet' | 'other';

/** Placeholder that stands for the secret end of a stored URL (NodeSecret.tail, or a legacy `key`). */
export const KEY_PLACEHOLDER = '{key}';

/** One configured node as kept in settings (`chaindeck.nodes`). */
export interface NodeConfig {
  /** Stable reference for SecretStorage; survives renames. */
  id: string;
  name: string;
  protocol: Protocol;
  /** Network label, e.g. "ethereum-mainnet"; free text. */
  network?: string;
  /** HTTPS (or local HTTP) JSON-RPC URL; its secret end (if any) is KEY_PLACEHOLDER, never userinfo. */
  url: string;
  /** WSS URL; derived from `url` when absent. */
  wsUrl?: string;
  auth: AuthForm;
  /** The user said the URL path holds no secret (e.g. `/rpc`): it stays in settings and is shown; the query is still secret. */
  publicPath?: boolean;
}

/** Credentials of one node, kept only in SecretStorage. */
export interface NodeSecret {
  /** What KEY_PLACEHOLDER stands for: the secret end of the URL (path after the public part, query), verbatim. */
  tail?: string;
  /** The same for an explicit `wsUrl` whose secret end differs from `url`'s. */
  wsTail?: string;
  /** Written by earlier versions: one path segment, decoded; put in URL-encoded. */
  key?: string;
  username?: string;
  password?: string;
}
