import type { EditorContext } from '../kit/context';
import type { Milestones } from '../kit/milestones';
import type { Log } from '../log';
import type { NodeFacts } from './facts';
import type { ResponseView } from './responseView';
import type { NodeStatusBar } from './statusBar';
import type { NodeStore } from './store';
import type { Subscriptions } from './subscriptions';
import type { NodesTree } from './tree';

/** The pieces of the Nodes feature that its commands work with. */
export interface NodesFeature {
  store: NodeStore;
  log: Log;
  facts: NodeFacts;
  tree: NodesTree;
  statusBar: NodeStatusBar;
  responses: ResponseView;
  subscriptions: Subscriptions;
  milestones: Milestones;
}

/** What a feature that works on the configured nodes is registered with. */
export interface EditorContextWithNodes extends EditorContext {
  nodes: NodesFeature;
}
