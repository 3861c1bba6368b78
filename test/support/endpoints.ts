/** Node configs and the paste → settings → resolve round trip, for the endpoint tests. */
import assert from 'node:assert/strict';
import { parseEndpoint, resolveEndpoint, settingsHoldSecret } from '../../src/core/nodes/endpoint';
import type { NodeConfig } from '../../src/core/nodes/model';

export const nodeConfig = (url: string, more: Partial<NodeConfig> = {}): NodeConfig => ({ id: 'n', name: 'n', protocol: 'evm', url, auth: 'none', ...more });

/** Parses, checks that settings would hold no secret, and resolves back (the pasted URL must come back byte for byte). */
export function roundTrip(pasted: string, options: { publicPath?: boolean } = {}) {
  const p = parseEndpoint(pasted, options);
  const config = nodeConfig(p.url, { wsUrl: p.wsUrl, auth: p.auth, publicPath: options.publicPath });
  assert.equal(settingsHoldSecret(config), false, `settings would hold a secret: ${p.url} ${p.wsUrl}`);
  return { p, config, r: resolveEndpoint(config, p.secret) };
}
