/** Shapes shared by the storage-range modes (spec: "Storage-range result", native and emulation). */
import type { Params } from '../rpc/client';
import type { BatchItem } from '../rpc/jsonrpc';
import type { CallOptions, RpcCall } from '../rpc/types';

/**
 * What the storage range needs from a JSON-RPC client: single calls and batches with the
 * semantics of RpcClient (a JSON-RPC error rejects with an RpcFailure of kind 'rpc'; a batch
 * answers one item per call). RpcClient and WsRpcClient both fit.
 */
export interface StorageRpc {
  call<T = unknown>(method: string, params?: Params, options?: CallOptions): Promise<T>;
  batch(calls: readonly RpcCall[], options?: CallOptions): Promise<BatchItem[]>;
}

/** One entry of a range. Native: keyed by hashed slot, `key` the preimage when known. Emulation: keyed by slot, `key` null. */
export interface StorageEntry {
  key: string | null;
  value: string;
}

/** How a range was read: natively (debug_storageRangeAt) or by the eth_getStorageAt emulation. */
export type StorageMode = 'native' | 'emulate';

/** The modes a user may ask for: auto (native where the node has it, else the emulation) or one of StorageMode. */
export const STORAGE_MODES = ['auto', 'native', 'emulate'] as const satisfies readonly ('auto' | StorageMode)[];
export type StorageModeChoice = (typeof STORAGE_MODES)[number];

export function isStorageModeChoice(value: unknown): value is StorageModeChoice {
  return (STORAGE_MODES as readonly unknown[]).includes(value);
}

/** How the emulation read the slots: the reference one at a time, or the fast strategies it fell back through. */
export type ReadStrategy = 'batch' | 'concurrent' | 'one-by-one';

/** Progress of an emulation run, for a progress bar: reads done (of at most maxReads) and entries found (of maxResults). */
export interface StorageProgress {
  slotsRead: number;
  entriesFound: number;
  maxReads: number;
  maxResults: number;
}

/** Hooks of an emulation run. */
export interface ScanHooks {
  signal?: AbortSignal;
  /** Called with each warning line (a failed read, skipped), in slot order. */
  onWarning?: (line: string) => void;
  onProgress?: (progress: StorageProgress) => void;
}
