/**
 * "Open Endpoints" on a platform node: a quick pick of its HTTPS, WSS and beacon endpoints as
 * the import would store them, redacted, with what can be done with each: copy it with the key
 * hidden, copy it with the key (after an explicit warning), or import the node.
 */
import * as vscode from 'vscode';
import { displayUrl, resolveEndpoint, urlWithUserinfo } from '../../core/nodes/endpoint';
import type { NodeConfig, NodeSecret } from '../../core/nodes/model';
import { nodeToConfig, type ImportedNode } from '../../core/platform/importNode';
import { pickOne } from '../nodes/pickers';
import type { ImportSource } from './importing';

interface Endpoint {
  label: string;
  config: NodeConfig;
  secret: NodeSecret;
  which: 'http' | 'ws';
}

type Choice = vscode.QuickPickItem & { run?: () => Promise<void> };

/** The endpoints the platform gave, in the form the import stores them. */
function endpointsOf(source: ImportSource, imported: ImportedNode): Endpoint[] {
  const { config, secret, beacon } = imported;
  const details = source.node.details;
  const list: Endpoint[] = [];
  if (details?.https_endpoint) list.push({ label: 'HTTPS', config, secret, which: 'http' });
  if (details?.wss_endpoint) list.push({ label: 'WSS', config, secret, which: 'ws' });
  if (beacon) list.push({ label: 'Beacon', config: beacon.config, secret: beacon.secret, which: 'http' });
  return list;
}

/** The endpoint as the console shows it: the key in the path, or user:password@ for Basic auth. */
function withCredentials({ config, secret, which }: Endpoint): string {
  return urlWithUserinfo(resolveEndpoint(config, secret), which);
}

async function copyWithCredentials(endpoint: Endpoint, nodeName: string): Promise<void> {
  const what = endpoint.config.auth === 'key' ? 'its access key' : 'its username and password';
  const copy = await vscode.window.showWarningMessage(
    `Copy the ${endpoint.label} endpoint of "${nodeName}" with ${what}?`,
    { modal: true, detail: 'Anyone who sees the copied URL can use the node and its quota. Paste it only where it stays private, never into a shared file or chat.' },
    'Copy with Key',
  );
  if (copy !== 'Copy with Key') return;
  await vscode.env.clipboard.writeText(withCredentials(endpoint));
  void vscode.window.showInformationMessage(`Copied the ${endpoint.label} endpoint of "${nodeName}" with ${what}.`);
}

/**
 * Shows the node's endpoints and runs the chosen action. `importNode` imports it (the caller's
 * import, with its progress and message). Throws NodeImportError when the node has no endpoint.
 */
export async function openEndpoints(source: ImportSource, importNode: () => Promise<void>): Promise<void> {
  const imported = nodeToConfig(source.node, source.network);
  const name = imported.config.name;
  const choices: Choice[] = [];
  for (const endpoint of endpointsOf(source, imported)) {
    const shown = displayUrl(endpoint.config, endpoint.which);
    const keyed = endpoint.config.auth !== 'none';
    choices.push(
      { label: endpoint.label, kind: vscode.QuickPickItemKind.Separator },
      {
        label: `$(copy) ${shown}`,
        description: keyed ? 'Copy, key hidden' : 'Copy',
        run: async () => {
          await vscode.env.clipboard.writeText(shown);
          void vscode.window.showInformationMessage(`Copied ${shown}${keyed ? ' (credentials hidden)' : ''}.`);
        },
      },
    );
    if (keyed) choices.push({ label: '$(key) Copy with Key…', description: `The ${endpoint.label} endpoint with its credentials`, run: () => copyWithCredentials(endpoint, name) });
  }
  choices.push(
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(cloud-download) Import Node', description: "Into the Nodes view; credentials go to the system's secret storage", run: importNode },
  );
  const chosen = await pickOne(choices, { title: `Endpoints of ${name}`, placeholder: 'Copy an endpoint, or import the node' });
  await chosen?.run?.();
}
