/** The one error type of decoding and diffing storage: a message that names what failed, for one line on stderr. */
import { CANCELLED, type Cancellable } from '../../cancel';

export type StorageDecodeReason =
  /** The address holds no code at the block(s). */
  | 'no-code'
  /** A read failed, or the node answered something that is not a storage word. */
  | 'read'
  /** The block changed under the reads (a reorganisation). */
  | 'reorg'
  /** The node cannot trace state diffs (a diff without a layout). */
  | 'trace'
  /** A bound of the work was reached, or the layout cannot be walked (a type it does not describe, a loop). */
  | 'limit'
  | 'cancelled';

export class StorageDecodeError extends Error implements Cancellable {
  override readonly name = 'StorageDecodeError';
  constructor(
    message: string,
    readonly reason: StorageDecodeReason,
  ) {
    super(message);
  }

  get cancelled(): boolean {
    return this.reason === CANCELLED;
  }
}
