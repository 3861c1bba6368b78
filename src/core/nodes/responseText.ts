/**
 * The text of a response document: a comment line with the measurements, comment lines reading
 * the reply's hex quantities as numbers (quantityComments), then the reply exactly, as
 * pretty-printed JSON (or as received when it is not JSON).
 */
import { quantityComments } from '../rpc/quantities';
import type { RawExchange } from '../rpc/types';

export interface ShownResponse {
  nodeName: string;
  /** What was called: a method name, or a summary of a batch. */
  label: string;
  exchange: RawExchange;
  /** The method each request asked for, by id: how a result's quantities read. */
  methodOf?: (id: unknown) => string | undefined;
}

/** `// HTTP 200 OK · 12 ms · 345 B · Local anvil · eth_blockNumber`, the quantities (`// result: 0x1a = 26`), then the body. */
export function responseText({ nodeName, label, exchange, methodOf }: ShownResponse): string {
  const status = `HTTP ${exchange.status}${exchange.statusText ? ` ${exchange.statusText}` : ''}`;
  const header = [status, `${Math.round(exchange.timeMs)} ms`, formatBytes(exchange.bytes), nodeName, label].join(' · ');
  if (exchange.body !== undefined) {
    const notes = quantityComments(exchange.body, { methodOf: methodOf ?? (() => label) });
    return [`// ${header}`, ...notes, `${JSON.stringify(exchange.body, null, 2)}\n`].join('\n');
  }
  const type = exchange.contentType || 'no content type';
  return `// ${header}\n// The reply is not JSON (${type}); shown as received:\n${exchange.text}\n`;
}

/** A size as the header shows it: B below 1 KB, then KB and MB with one decimal. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
