/**
 * The host end of a panel's typed RPC (see src/webview/protocol.ts): answers the webview's
 * requests with `res` or `err`, and posts notifications once the page has said it is ready.
 */
import * as vscode from 'vscode';
import type { Contract, NotificationName, ParamsOf, ReplyMessage, RequestMessage, RequestName, ResultOf, ToWebview } from '../../webview/protocol';
import { errorText } from '../kit/errors';

export type Handlers<C extends Contract> = {
  [M in RequestName<C>]: (params: ParamsOf<C, M>) => ResultOf<C, M> | Promise<ResultOf<C, M>>;
};

export class HostMessenger<C extends Contract> implements vscode.Disposable {
  /**
   * Whether the page listens. A hidden panel loses its page (no retainContextWhenHidden); the
   * new page asks `ready` again and gets the whole state in the reply, so notifications posted
   * in between may be dropped.
   */
  private ready = false;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly handlers: Handlers<C>,
    private readonly onError: (method: string, message: string) => void,
  ) {
    this.subscriptions = [
      panel.webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.ready = false;
      }),
    ];
  }

  notify<N extends NotificationName<C>>(method: N, params: C['notifications'][N]): void {
    if (!this.ready) return;
    const message: ToWebview = { kind: 'notify', method, params };
    void this.panel.webview.postMessage(message);
  }

  private async receive(message: unknown): Promise<void> {
    if (!isRequest(message)) return;
    const handler = (this.handlers as Record<string, ((params: unknown) => unknown) | undefined>)[message.method];
    let reply: ReplyMessage;
    try {
      if (!handler) throw new Error(`Unknown request '${message.method}'.`);
      const res = await handler(message.params);
      reply = { kind: 'reply', seq: message.seq, res };
      if (message.method === 'ready') this.ready = true;
    } catch (error) {
      const err = errorText(error);
      this.onError(message.method, err);
      reply = { kind: 'reply', seq: message.seq, err };
    }
    void this.panel.webview.postMessage(reply);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

function isRequest(message: unknown): message is RequestMessage {
  const m = message as Partial<RequestMessage> | undefined;
  return m?.kind === 'request' && typeof m.seq === 'number' && typeof m.method === 'string';
}
