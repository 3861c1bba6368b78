/**
 * The recording JSON-RPC gateway a capture puts between a local graph-node and the user's node:
 * it forwards every call (batches too) through core's client, so the URL's secrets stay in one
 * place and out of graph-node's command line and log, and
 * - makes the chain end at block `head`: `eth_blockNumber` and the tagged blocks (`latest`,
 *   `pending`, `safe`, `finalized`) answer that block, later blocks do not exist, so the node
 *   indexes exactly to it and then reports itself synced;
 * - records what a test must replay: every `eth_call`, `eth_getBalance` and `eth_getCode` with
 *   its answer (or its error), and every log graph-node was handed: by `eth_getLogs` (blocks
 *   further than its reorg threshold from the head) and in `eth_getBlockReceipts` (nearer
 *   blocks, whose logs it filters itself): only the receipts' logs are kept.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { RpcClient } from '../../rpc/client';
import type { JsonRpcResponse } from '../../rpc/types';

/** The methods whose answers a test replays. */
export const RECORDED_METHODS = new Set(['eth_call', 'eth_getBalance', 'eth_getCode', 'eth_getLogs', 'eth_getBlockReceipts']);

/** One recorded call: its params as graph-node sent them, and the node's answer. */
export interface RecordedCall {
  method: string;
  params: unknown[];
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** How much a capture may record before it stops (graph-node asks again on failure, so records repeat). */
export const MAX_RECORDS = 200_000;
/** And how many bytes of answers (as JSON) it may keep: a node that hands out huge logs again and again would otherwise fill the memory. */
export const MAX_RECORDED_BYTES = 256 * 1024 * 1024;
/** A request graph-node sends is small; a bigger one is refused unread. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

const TAGS = new Set(['latest', 'pending', 'safe', 'finalized']);

export interface RecordingGateway {
  /** http://127.0.0.1:PORT: no secret in it, fit for graph-node's command line and log. */
  readonly url: string;
  readonly records: RecordedCall[];
  /** Set when more than MAX_RECORDS calls or MAX_RECORDED_BYTES were to be recorded: the capture cannot be complete. */
  readonly overflowed: boolean;
  /** HTTP requests graph-node sent (a batch is one). */
  readonly requests: number;
  close(): Promise<void>;
}

const hex = (n: number) => `0x${n.toString(16)}`;

/** A block parameter past the chain's end (a number above `head`). */
function pastHead(block: unknown, head: number): boolean {
  return typeof block === 'string' && /^0x[0-9a-f]+$/i.test(block) && BigInt(block) > BigInt(head);
}

/**
 * The call to send upstream for one request, with the chain capped at `head`, or the answer
 * given here without asking (a block past the end does not exist).
 */
export function capRequest(method: string, params: unknown[], head: number): { forward: { method: string; params: unknown[] } } | { answer: unknown } {
  const capTag = (v: unknown) => (typeof v === 'string' && TAGS.has(v) ? hex(head) : v);
  switch (method) {
    case 'eth_blockNumber':
      return { answer: hex(head) };
    case 'eth_getBlockByNumber': {
      if (pastHead(params[0], head)) return { answer: null };
      return { forward: { method, params: [capTag(params[0]), ...params.slice(1)] } };
    }
    case 'eth_getLogs': {
      const filter = params[0];
      if (typeof filter === 'object' && filter !== null && !Array.isArray(filter)) {
        const f = { ...(filter as Record<string, unknown>) };
        if ('fromBlock' in f) f.fromBlock = capTag(f.fromBlock);
        if ('toBlock' in f) f.toBlock = capTag(f.toBlock);
        return { forward: { method, params: [f, ...params.slice(1)] } };
      }
      return { forward: { method, params } };
    }
    case 'eth_call':
    case 'eth_getBalance':
    case 'eth_getCode':
      return { forward: { method, params: [...params.slice(0, -1), capTag(params[params.length - 1])] } };
    default:
      return { forward: { method, params } };
  }
}

interface Request {
  id: unknown;
  method: string;
  params: unknown[];
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_REQUEST_BYTES) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function asRequest(v: unknown): Request | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof r.method !== 'string') return undefined;
  return { id: r.id ?? null, method: r.method, params: Array.isArray(r.params) ? r.params : [] };
}

/** Starts the gateway on 127.0.0.1 (a free port) in front of `upstream`, with the chain ending at `head`. */
export async function startRecordingGateway(upstream: RpcClient, head: number, signal?: AbortSignal, maxRecordedBytes = MAX_RECORDED_BYTES): Promise<RecordingGateway> {
  const records: RecordedCall[] = [];
  let overflowed = false;
  let requests = 0;
  let recordedBytes = 0;
  const record = (r: RecordedCall) => {
    if (overflowed) return;
    recordedBytes += JSON.stringify(r.result ?? r.error ?? null).length;
    if (records.length >= MAX_RECORDS || recordedBytes > maxRecordedBytes) overflowed = true;
    else records.push(r);
  };

  /** The answers to the requests, in order; the upstream calls of a batch go as one batch. */
  async function answer(requests: Request[]): Promise<JsonRpcResponse[]> {
    const plans = requests.map((r) => capRequest(r.method, r.params, head));
    const forwards = plans.flatMap((p, i) => ('forward' in p ? [{ i, call: p.forward }] : []));
    // `lost`: no answer from the node (unreachable, timed out): graph-node retries, nothing is recorded.
    const upstreamAnswers = new Map<number, Pick<JsonRpcResponse, 'result' | 'error'> & { lost?: true }>();
    const lost = (err: unknown) => ({ error: { code: -32603, message: err instanceof Error ? err.message : String(err) }, lost: true as const });
    if (forwards.length === 1) {
      const { i, call } = forwards[0];
      try {
        const { result, error } = await upstream.callResponse(call.method, call.params, { signal });
        upstreamAnswers.set(i, error ? { error } : { result });
      } catch (err) {
        upstreamAnswers.set(i, lost(err));
      }
    } else if (forwards.length > 1) {
      try {
        const items = await upstream.batch(
          forwards.map((f) => f.call),
          { signal },
        );
        items.forEach((item, k) => {
          const i = forwards[k].i;
          if ('result' in item) upstreamAnswers.set(i, { result: item.result });
          else upstreamAnswers.set(i, item.response?.error ? { error: item.response.error } : lost(item.error));
        });
      } catch (err) {
        for (const f of forwards) upstreamAnswers.set(f.i, lost(err));
      }
    }
    return requests.map((r, i) => {
      const plan = plans[i];
      const { lost: wasLost, ...got } = 'answer' in plan ? { result: plan.answer, lost: undefined } : upstreamAnswers.get(i)!;
      if (RECORDED_METHODS.has(r.method) && !wasLost) {
        const kept =
          r.method === 'eth_getBlockReceipts' && Array.isArray(got.result)
            ? { result: got.result.flatMap((receipt: { logs?: unknown }) => (Array.isArray(receipt?.logs) ? receipt.logs : [])) }
            : got;
        record({ method: r.method, params: 'forward' in plan ? plan.forward.params : r.params, ...kept });
      }
      return { jsonrpc: '2.0', id: r.id as JsonRpcResponse['id'], ...got };
    });
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    requests++;
    void (async () => {
      const text = await readBody(req);
      if (text === undefined) return reply(413, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request too large' } });
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return reply(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      }
      const list = Array.isArray(body) ? body.map(asRequest) : [asRequest(body)];
      if (list.length === 0 || list.some((r) => !r)) return reply(400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } });
      const answers = await answer(list as Request[]);
      reply(200, Array.isArray(body) ? answers : answers[0]);
    })().catch((err: unknown) => {
      if (!res.headersSent) reply(500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: err instanceof Error ? err.message : String(err) } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    records,
    get overflowed() {
      return overflowed;
    },
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
