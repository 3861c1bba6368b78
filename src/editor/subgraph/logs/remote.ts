/**
 * The log of a subgraph on another graph-node, read through its query URL's `_logs` (graph-node
 * 0.44+ with a log store) while its panel is open: what is there (up to graph-node's paging
 * bounds), then every few seconds what came since the last entry's time.
 */
import type * as vscode from 'vscode';
import { LOGS_MAX_FIRST, LOGS_MAX_SKIP, LOGS_QUERY, LogsCursor, logsOfAnswer, logsVariables, type LogsPageRequest } from '../../../core/indexing/logs/graphqlLogs';
import type { LogEntry } from '../../../core/indexing/logs/entry';
import type { LogStore } from '../../../core/indexing/logs/store';
import type { SubgraphRecord } from '../../../core/subgraph/graphnode/records';
import { errorText } from '../../kit/errors';
import type { SubgraphStore } from '../records/store';

const POLL_MS = 3000;

/** Reads `record`'s `_logs` into `store` under `key` until disposed; `problem` says what could not be read (undefined once it reads again). */
export function readRemoteLogs(records: SubgraphStore, record: SubgraphRecord, key: string, store: LogStore, problem: (text: string | undefined) => void): vscode.Disposable {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cursor: LogsCursor | undefined;
  const page = async (request: LogsPageRequest): Promise<LogEntry[]> => {
    const outcome = await records.query(record, { query: LOGS_QUERY, variables: logsVariables(request) }, undefined, abort.signal);
    return outcome.kind === 'answered' ? logsOfAnswer(outcome.response, key) : [];
  };
  const take = (entries: LogEntry[]) => {
    for (const e of cursor!.fresh(entries)) store.add(e);
  };
  const run = async () => {
    try {
      if (!cursor) {
        cursor = new LogsCursor();
        store.clear(key);
        for (let skip = 0; skip <= LOGS_MAX_SKIP; skip += LOGS_MAX_FIRST) {
          const entries = await page({ first: LOGS_MAX_FIRST, skip });
          take(entries);
          if (entries.length < LOGS_MAX_FIRST) break;
        }
      } else take(await page(cursor.next()));
      problem(undefined);
    } catch (error) {
      if (abort.signal.aborted) return;
      problem(errorText(error));
    }
    if (!abort.signal.aborted) timer = setTimeout(() => void run(), POLL_MS);
  };
  void run();
  return {
    dispose: () => {
      abort.abort();
      clearTimeout(timer);
    },
  };
}
