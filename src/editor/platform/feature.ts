import type { Log } from '../log';
import type { NodesFeature } from '../nodes/feature';
import type { PlatformSession } from './session';
import type { PlatformTree } from './tree';

/** The pieces of the Platform feature that its commands work with (and extension-host tests reach). */
export interface PlatformFeature {
  session: PlatformSession;
  tree: PlatformTree;
  /** Imports land in the Nodes feature's store, and its tree shows them. */
  nodes: Pick<NodesFeature, 'store' | 'tree'>;
  log: Log;
}
