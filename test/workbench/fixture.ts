/**
 * The workspace every workbench test opens: Chaindeck settings pointing at a local anvil and a
 * JSON-RPC request file. Shared by scripts/workbench/run.mjs and suite/run-electron.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const NODE_NAME = 'Local anvil';
export const DEMO_REQUEST = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };

/** Creates (or refreshes) the workspace folder `dir` for a node at `anvilUrl`. */
export function writeWorkspace(dir: string, anvilUrl: string): string {
  fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
  const settings = {
    'chaindeck.nodes': [{ name: NODE_NAME, protocol: 'evm', url: anvilUrl }],
    'chaindeck.defaultNode': NODE_NAME,
  };
  fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
  fs.writeFileSync(path.join(dir, 'demo.jsonrpc'), JSON.stringify(DEMO_REQUEST) + '\n');
  return dir;
}
