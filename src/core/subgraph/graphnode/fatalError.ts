/**
 * Where a deployment's fatal indexing error belongs in the project: the manifest line naming the
 * handler that failed (else the manifest's first line), and the mapping file that defines it.
 */
import { functionOffset, summarizeManifest } from '../manifest/manifestSummary';

/** What graph-node's index node says of a deployment that stopped indexing. */
export interface FatalError {
  message: string;
  handler?: string;
  block?: number;
}

export interface TextSpan {
  start: number;
  end: number;
}

/** The handler that failed: the index node's field, else named in its message ("in handler `handleX`"), as graph-node writes it for mapping aborts. */
export function failedHandler(error: FatalError): string | undefined {
  return error.handler ?? /\bin handler `([^`]+)`/.exec(error.message)?.[1];
}

/** The one-line message the Problems panel shows: what failed, where, and the chain's words. */
export function fatalErrorMessage(subgraph: string, error: FatalError): string {
  const handler = failedHandler(error);
  const where = [handler && `in ${handler}`, error.block !== undefined && `at block ${error.block}`].filter(Boolean).join(' ');
  return `${subgraph} stopped indexing${where ? ` ${where}` : ''}: ${error.message.replace(/\s+/g, ' ').trim()}`;
}

/** The handler's name in the manifest (`handler: NAME`), else the start of the first line. */
export function handlerSpanInManifest(manifestText: string, handler: string | undefined): TextSpan {
  if (handler) {
    const escaped = handler.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const m = new RegExp(`^[ \\t-]*handler:[ \\t]*["']?(${escaped})["']?[ \\t]*(#.*)?$`, 'm').exec(manifestText);
    if (m) {
      const start = m.index + m[0].indexOf(m[1], m[0].indexOf('handler:') + 8);
      return { start, end: start + handler.length };
    }
  }
  const firstLine = manifestText.indexOf('\n');
  return { start: 0, end: firstLine < 0 ? manifestText.length : firstLine };
}

/** The mapping file (as written in the manifest) of the data source or template whose handlers include `handler`. */
export function mappingOfHandler(manifestText: string, handler: string | undefined): string | undefined {
  if (!handler) return undefined;
  return summarizeManifest(manifestText).dataSources.find((ds) => ds.handlers.some((h) => h.handler === handler))?.mappingFile;
}

/** The handler's name where the mapping defines it, if it does. */
export function handlerSpanInMapping(mappingText: string, handler: string): TextSpan | undefined {
  const start = functionOffset(mappingText, handler);
  return start === undefined ? undefined : { start, end: start + handler.length };
}
