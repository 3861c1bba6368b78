/** The Replay Block panel's messages: its page (page.ts) and its host (src/editor/subgraph/replay/panel.ts) both import them. Values are text. */

export interface ReplayValue {
  name: string;
  type: string;
  value: string;
}

export interface ReplayEvent {
  logIndex: number;
  address: string;
  transaction: string;
  source: string;
  signature: string;
  args: ReplayValue[];
}

export interface ReplayTransaction {
  hash: string;
  from: string;
  to?: string;
  value: string;
  call?: { signature: string; args: ReplayValue[] };
  selector?: string;
}

export interface ReplayBlock {
  number: number;
  hash?: string;
  events: ReplayEvent[];
  transactions: ReplayTransaction[];
  blockHandlers: string[];
  truncated: boolean;
}

export interface ReplayCachedCall {
  address: string;
  sources: string[];
  returned: string;
  returnedBytes: number;
  decoded?: { functions: string[]; values: ReplayValue[] };
}

export interface ReplayChange {
  entity: string;
  id: string;
  kind: 'created' | 'updated' | 'unchanged';
  before?: Record<string, unknown>;
  after: Record<string, unknown>;
  changed: string[];
}

export interface ReplayLocation {
  file: string;
  line: number;
  column: number;
  message?: string;
}

export type ReplayResult =
  | { kind: 'indexed'; changes: ReplayChange[]; truncated: string[]; errors: string[]; laterError?: string }
  | { kind: 'failed'; message: string; block?: number; location?: ReplayLocation }
  | { kind: 'build-failed'; message: string; output: string };

export interface ReplaySnapshot {
  /** `<name> · block N` */
  title: string;
  /** The debug name the replays are deployed as. */
  debugName: string;
  block: number;
  /** Why it grafts or starts at N. */
  plan: string;
  /** What runs now ("Building…"), or empty when idle. */
  busy: string;
  /** What the last run saw, with its deployment and each step's time. */
  result?: ReplayResult;
  deployment?: string;
  timings?: { build: number; deploy: number; index: number; read: number; total: number };
  /** When the last run ended (ISO time). */
  at?: string;
  chain?: ReplayBlock;
  /** Why the block could not be read from the chain. */
  chainError?: string;
  /** What graph-node's call cache holds for the block (read after each run). */
  calls?: { calls: ReplayCachedCall[]; truncated: boolean };
  /** Why the call cache could not be read. */
  callsError?: string;
  /** A failure of the replay itself (deploy refused, node stopped). */
  error?: string;
}

export interface ReplayContract {
  requests: {
    ready: { params: undefined; result: ReplaySnapshot };
    rerun: { params: undefined; result: undefined };
    openLocation: { params: ReplayLocation; result: undefined };
  };
  notifications: {
    snapshot: ReplaySnapshot;
  };
}
