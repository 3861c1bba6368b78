/**
 * The one way core says "stopped because the caller asked": an AbortSignal fired, or a client
 * was closed under a call. Each error type keeps its own field for it (RpcFailure and
 * PlatformError the kind 'cancelled', StorageRangeError the reason 'cancelled'), and each says so
 * through `cancelled`, so a caller asks one question instead of one per error type: a
 * cancellation is no failure to report.
 */

/** The word each error type uses for a cancellation. */
export const CANCELLED = 'cancelled';

/** What every core error that can be a cancellation has. */
export interface Cancellable {
  readonly cancelled: boolean;
}

/** Whether `error` is core's word that the caller cancelled (of any of its error types). */
export function isCancellation(error: unknown): boolean {
  return error instanceof Error && (error as Partial<Cancellable>).cancelled === true;
}
