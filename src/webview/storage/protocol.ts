/** The Storage panel's messages: its page (page.ts) and its host (src/editor/storage/panel.ts) both import them. */
import type { TableContract, TableNotifications, TablePage, TableRequests, TableSnapshot } from '../protocol';

/** Core's STORAGE_MODES, spelled here since the panels may not import core's storage; the host passes one to the other both ways, so the compiler holds them equal. */
export type StorageMode = 'auto' | 'native' | 'emulate';

/** The form as typed: the host parses and checks it (the webview holds no validation logic). */
export interface StorageForm {
  nodeId: string;
  address: string;
  /** `latest`, a block number, or a block hash. */
  block: string;
  txIndex: string;
  start: string;
  max: string;
  mode: StorageMode;
}

/** A node the form offers: its name and redacted URL only, never a credential. */
export interface NodeChoice {
  id: string;
  name: string;
  url: string;
}

export interface StoragePage extends TablePage {
  /** The mode that produced the page (`auto` resolves to one of these). */
  mode: 'native' | 'emulate';
  address: string;
  nodeName: string;
  block: { number: string; hash: string };
  /** Caveats of the mode, in plain words, for the banner. */
  notes: string[];
  /** What went wrong on the way without failing the page (e.g. skipped slot reads). */
  warnings: string[];
  /** The contract whose storage layout labelled the rows, when one matched. */
  layout?: string;
}

/** The form as the host last set it; the version tells the page whether its own draft is newer. */
export interface VersionedForm {
  form: StorageForm;
  version: number;
}

export interface StorageSnapshot extends TableSnapshot<StoragePage>, VersionedForm {
  nodes: NodeChoice[];
}

export interface StorageContract extends TableContract<StoragePage> {
  requests: TableRequests<StoragePage> & {
    ready: { params: undefined; result: StorageSnapshot };
    /** Reads the first page of the form's query; progress and the page arrive as notifications. */
    load: { params: StorageForm; result: undefined };
  };
  notifications: TableNotifications<StoragePage> & {
    nodes: NodeChoice[];
    form: VersionedForm;
  };
}
