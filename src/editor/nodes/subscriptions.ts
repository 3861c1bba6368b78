/**
 * "Chaindeck: Subscribe over WebSocket…": eth_subscribe on a node's WSS endpoint, each
 * notification appended to an output channel of its own. One connection per node carries all of
 * that node's subscriptions and reconnects (resubscribing) after a drop; "Stop Subscription…"
 * ends one, and closing the last one of a node closes its connection.
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../core/nodes/model';
import { inertText } from '../../core/inert';
import { parseParams } from '../../core/rpc/params';
import { WsRpcClient, type Subscription } from '../../core/rpc/ws';
import { errorText, problemOf } from '../kit/errors';
import type { Settings } from '../kit/settings';
import type { Log } from '../log';
import type { NodeStore } from './store';
import { nodeToCall, pickOne } from './pickers';

/** The usual eth_subscribe kinds; `logs` asks for a filter. */
const KINDS = [
  { label: 'newHeads', detail: 'A notification for every new block header' },
  { label: 'logs', detail: 'Logs matching a filter {address, topics}' },
  { label: 'newPendingTransactions', detail: 'Hashes of transactions entering the pool' },
] as const;

interface Live {
  node: NodeConfig;
  title: string;
  subscription: Subscription;
  output: vscode.OutputChannel;
  received: number;
}

export class Subscriptions implements vscode.Disposable {
  private readonly clients = new Map<string, WsRpcClient>();
  private readonly live: Live[] = [];

  constructor(
    private readonly store: NodeStore,
    private readonly log: Log,
    private readonly settings: Settings,
  ) {}

  /** Asks node, kind and (for logs) the filter, then subscribes. Returns the title, if any. */
  async subscribe(arg?: unknown, preset?: { kind: string; params?: unknown[] }): Promise<string | undefined> {
    const node = await nodeToCall(this.store, arg, 'Subscribe on Which Node?');
    if (!node) return undefined;
    const params = preset ? [preset.kind, ...(preset.params ?? [])] : await askParams();
    if (!params) return undefined;
    const title = `${node.name} ${String(params[0])}`;
    const output = vscode.window.createOutputChannel(`Chaindeck: ${title}`);
    const client = await this.clientOf(node, output);
    const live = { node, title, output, received: 0 } as Live;
    try {
      live.subscription = await client.subscribe(
        params,
        (result) => {
          live.received++;
          output.appendLine(inertText(`${new Date().toISOString()} ${describe(result)}`));
        },
        { onError: (problem) => output.appendLine(inertText(`subscription lost: ${problem.message}`)) },
      );
      this.live.push(live);
      output.appendLine(inertText(`subscribed to ${JSON.stringify(params)} (id ${String(live.subscription.id)}) on ${node.name}`));
      output.show(true);
      this.log.info(`subscribed to ${title}`);
      return title;
    } catch (error) {
      output.dispose();
      await this.closeIdle(node);
      throw error;
    }
  }

  /** Ends one live subscription: the one titled, else the one the user picks. */
  async unsubscribe(title?: string): Promise<void> {
    if (!this.live.length) {
      void vscode.window.showInformationMessage('No subscription is running.');
      return;
    }
    const live =
      typeof title === 'string'
        ? this.live.find((l) => l.title === title)
        : (
            await pickOne(
              this.live.map((l) => ({ label: l.title, live: l })),
              { title: 'Stop Which Subscription?' },
            )
          )?.live;
    if (!live) return;
    this.live.splice(this.live.indexOf(live), 1);
    await live.subscription.unsubscribe().catch((error: unknown) => this.log.warn(`unsubscribing ${live.title}: ${errorText(error)}`));
    live.output.appendLine('unsubscribed');
    await this.closeIdle(live.node);
  }

  /** The running subscriptions and how many notifications each has shown. */
  get running(): { title: string; received: number }[] {
    return this.live.map(({ title, received }) => ({ title, received }));
  }

  dispose(): void {
    for (const client of this.clients.values()) void client.close();
    for (const l of this.live) l.output.dispose();
    this.clients.clear();
    this.live.length = 0;
  }

  private async clientOf(node: NodeConfig, output: vscode.OutputChannel): Promise<WsRpcClient> {
    let client = this.clients.get(node.id);
    if (!client) {
      client = new WsRpcClient(await this.store.resolve(node), {
        ...this.settings.limits(),
        onStatus: (status, problem) => {
          if (status === 'reconnecting') output.appendLine(inertText(`connection lost${problem ? `: ${problem.message}` : ''}; reconnecting…`));
        },
      });
      this.clients.set(node.id, client);
    }
    return client;
  }

  private async closeIdle(node: NodeConfig): Promise<void> {
    if (this.live.some((l) => l.node.id === node.id)) return;
    await this.clients.get(node.id)?.close();
    this.clients.delete(node.id);
  }
}

async function askParams(): Promise<unknown[] | undefined> {
  const kind = await pickOne(
    KINDS.map((k) => ({ ...k })),
    { title: 'Subscribe to What?' },
  );
  if (!kind) return undefined;
  if (kind.label !== 'logs') return [kind.label];
  const filter = await vscode.window.showInputBox({
    title: 'Log Filter',
    prompt: 'A JSON object such as {"address": "0x…", "topics": ["0x…"]}; {} for every log',
    value: '{}',
    ignoreFocusOut: true,
    validateInput: (text) =>
      problemOf(() => {
        if (Array.isArray(parseParams(text))) throw new Error('The filter is a JSON object, not an array');
      }),
  });
  return filter === undefined ? undefined : ['logs', parseParams(filter)];
}

/** One line per notification: the block of a header, else the JSON as sent. */
function describe(result: unknown): string {
  if (result && typeof result === 'object' && 'number' in result && 'hash' in result) {
    const head = result as { number: string; hash: string };
    return `block ${BigInt(head.number).toString()} ${head.hash}`;
  }
  return JSON.stringify(result);
}
