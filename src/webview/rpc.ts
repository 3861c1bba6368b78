/**
 * The webview end of a panel's typed RPC (see protocol.ts): requests numbered by a sequence and
 * matched to their replies, notifications dispatched by name, and the page's saved view state.
 */
import type { Contract, NotificationName, ParamsOf, RequestMessage, RequestName, ResultOf, ToWebview } from './protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export class WebviewRpc<C extends Contract> {
  // acquireVsCodeApi may be called only once per page.
  private readonly api = acquireVsCodeApi();
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (res: unknown) => void; reject: (err: Error) => void }>();
  private readonly listeners = new Map<string, (params: unknown) => void>();

  constructor() {
    window.addEventListener('message', (event: MessageEvent) => this.receive(event.data as ToWebview));
  }

  request<M extends RequestName<C>>(method: M, ...[params]: ParamsOf<C, M> extends undefined ? [] : [ParamsOf<C, M>]): Promise<ResultOf<C, M>> {
    const seq = ++this.seq;
    const message: RequestMessage = { kind: 'request', seq, method, params };
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve: resolve as (res: unknown) => void, reject });
      this.api.postMessage(message);
    });
  }

  on<N extends NotificationName<C>>(method: N, listener: (params: C['notifications'][N]) => void): void {
    this.listeners.set(method, listener as (params: unknown) => void);
  }

  /** The view state saved by `saveState`, kept by VS Code while the panel is hidden. */
  loadState<T>(): Partial<T> {
    return (this.api.getState() as Partial<T> | undefined) ?? {};
  }

  saveState<T>(state: T): void {
    this.api.setState(state);
  }

  private receive(message: ToWebview | undefined): void {
    if (message?.kind === 'reply') {
      const waiting = this.pending.get(message.seq);
      if (!waiting) return;
      this.pending.delete(message.seq);
      if (message.err !== undefined) waiting.reject(new Error(message.err));
      else waiting.resolve(message.res);
    } else if (message?.kind === 'notify') {
      this.listeners.get(message.method)?.(message.params);
    }
  }
}
