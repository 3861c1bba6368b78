/**
 * "Chaindeck: Call Method…": pick a node, pick one of its protocol's common methods or type any
 * name, edit the params (checked as you type), send, and read the reply in the response view.
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../core/nodes/model';
import { methodsFor, type MethodInfo } from '../../core/nodes/protocols';
import { parseParams } from '../../core/rpc/params';
import { problemOf } from '../kit/errors';
import { sendAndShow } from './calls';
import type { NodesFeature } from './feature';
import { nodeToCall } from './pickers';

export async function callMethod(f: NodesFeature, arg?: unknown): Promise<void> {
  const node = await nodeToCall(f.store, arg, 'Call a Method on Which Node?');
  if (!node) return;
  const method = await pickMethod(node);
  if (!method) return;
  if (method.kind === 'rest') {
    return sendAndShow(f, node, method.name, undefined, { httpMethod: method.httpMethod, path: method.path });
  }
  const text = await vscode.window.showInputBox({
    title: `${method.name} on ${node.name}`,
    prompt: 'Params as a JSON array, e.g. ["0x…", "latest"] (or an object for named params)',
    value: JSON.stringify(method.params),
    ignoreFocusOut: true,
    validateInput: (text) => problemOf(() => parseParams(text)),
  });
  if (text === undefined) return;
  const params = parseParams(text);
  await sendAndShow(f, node, method.name, { jsonrpc: '2.0', id: 1, method: method.name, params });
}

type MethodItem = vscode.QuickPickItem & { method: MethodInfo };

/** Picks a common method of the node's protocol, or whatever name the user types. */
function pickMethod(node: NodeConfig): Promise<MethodInfo | undefined> {
  const common: MethodItem[] = methodsFor(node.protocol).map((method) => ({ label: method.name, detail: method.description, method }));
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<MethodItem>();
    pick.title = `Call a Method on ${node.name}`;
    pick.placeholder = common.length ? 'Pick a common method, or type any method name' : 'Type the method name';
    pick.matchOnDetail = true;
    pick.items = common;
    pick.onDidChangeValue((value) => {
      const name = value.trim();
      const known = common.some((item) => item.label === name);
      pick.items = name && !known ? [typedMethod(node, name), ...common] : common;
    });
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0]?.method);
      pick.hide();
    });
    pick.onDidHide(() => {
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
  });
}

/** A typed name: a JSON-RPC method, or for beacon nodes a REST path (`/eth/v1/…` or `GET /…`). */
function typedMethod(node: NodeConfig, name: string): MethodItem {
  const path = node.protocol === 'beacon' ? /^(?:GET\s+)?(\/\S*)$/i.exec(name)?.[1] : undefined;
  const method: MethodInfo = path ? { kind: 'rest', name: `GET ${path}`, httpMethod: 'GET', path, description: '' } : { kind: 'rpc', name, params: [], description: '' };
  return { label: name, description: path ? 'GET this path' : 'Call this method', alwaysShow: true, method };
}
