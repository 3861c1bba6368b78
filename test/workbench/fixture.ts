/**
 * The workspace every workbench test opens: Chaindeck settings pointing at a local anvil and a
 * JSON-RPC request file. Shared by scripts/workbench/run.mjs and suite/run-electron.ts.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

/** A loopback port nothing listens on (taken, then released). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export const NODE_NAME = 'Local anvil';
export const DEMO_REQUEST = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };

/**
 * A node written into settings.json with its key in the clear, as an earlier version (or a hand
 * edit) left it: a short key in the path and a query key, which the extension must move to
 * secret storage on activation. The runners put the key-in-path proxy in front of anvil for it.
 */
export const KEYED_NODE = { name: 'Key left in settings', secret: 'abc123key?apikey=zq-settings-9' };

/**
 * Creates (or refreshes) the workspace folder `dir` for a node at `anvilUrl`, plus KEYED_NODE
 * at `keyedUrl` (the proxy's URL, its secret in the clear) when given.
 */
export function writeWorkspace(dir: string, anvilUrl: string, keyedUrl?: string): string {
  fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
  const settings = {
    'chaindeck.nodes': [{ name: NODE_NAME, protocol: 'evm', url: anvilUrl }, ...(keyedUrl ? [{ name: KEYED_NODE.name, protocol: 'evm', url: keyedUrl }] : [])],
    'chaindeck.defaultNode': NODE_NAME,
  };
  fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
  fs.writeFileSync(path.join(dir, 'demo.jsonrpc'), JSON.stringify(DEMO_REQUEST) + '\n');
  return dir;
}
