/**
 * The one error type of the storage-range feature. Its message is what goes, verbatim, into the
 * spec's error form `{"code": -32000, "message": …}`; `detail` carries what the exact spec text
 * leaves out (e.g. why the node could not be reached), for stderr and the editor's log.
 */
import { CANCELLED, type Cancellable } from '../cancel';

/** The only error code the spec shows for the emulation's failures (Errors 1, 4). */
export const STORAGE_ERROR_CODE = -32000;

/** The spec's exact text for a node that cannot be reached at the start (Errors 4). */
export const CONNECT_FAILED = 'Failed to connect to Ethereum node';

/** The spec's prefix for a failed block lookup (emulation step 1). */
export const BLOCK_FAILED_PREFIX = 'Failed to get block: ';

export type StorageErrorReason =
  /** A bad argument (address, start key, block, max results, tx index): nothing was sent. */
  | 'input'
  /** The node could not be reached (or did not speak JSON-RPC) at the start. */
  | 'connect'
  /** The block lookup failed or found no block. */
  | 'block'
  /** The block at the number read is no longer the block looked up (a reorganisation mid-page). */
  | 'reorg'
  /** debug_storageRangeAt is not implemented by the node (mode 'native' only; 'auto' falls back). */
  | 'native-unavailable'
  /** debug_storageRangeAt answered with a real error, or with something that is not a range. */
  | 'native'
  /** The AbortSignal fired. */
  | 'cancelled'
  /** The time budget of the whole range (the CLI's --timeout) ran out mid-scan. */
  | 'timeout';

export class StorageRangeError extends Error implements Cancellable {
  override readonly name = 'StorageRangeError';
  readonly code = STORAGE_ERROR_CODE;

  constructor(
    message: string,
    readonly reason: StorageErrorReason,
    /** More than the message says (e.g. the network error behind CONNECT_FAILED). */
    readonly detail?: string,
  ) {
    super(message);
  }

  get cancelled(): boolean {
    return this.reason === CANCELLED;
  }
}

/** The deadline ran out: the range fails as a whole, rather than skipping every slot left. */
export function timeUpError(failure: Error): StorageRangeError {
  return new StorageRangeError(`Storage range not finished: ${failure.message}`, 'timeout');
}

export function cancelledError(): StorageRangeError {
  return new StorageRangeError('Storage range cancelled', CANCELLED);
}
