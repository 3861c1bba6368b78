/** The Profile panel's messages: its page (page.ts) and its host (src/editor/subgraph/speed/profilePanel.ts) both import them. */

export interface ProfileHandlerRow {
  handler: string;
  count: number;
  totalMs: number;
  meanMs: number;
  /** Of all handler time, 0–1. */
  share: number;
}

export interface ProfileCallRow {
  contract: string;
  method: string;
  count: number;
  meanMs: number;
}

/** Everything the page shows, as the host last read it (already inert text). */
export interface ProfileView {
  /** The deployment's names, else its id. */
  title: string;
  deployment: string;
  /** "8.44 blocks/s · 8.44 triggers/s · ETA 7 s", "synced". */
  speed?: string;
  handlers: ProfileHandlerRow[];
  ethCall: { count: number; totalMs: number; share: number; methods: ProfileCallRow[] };
  hint?: { message: string; places: { handler: string; line: number }[] };
  /** Why the metrics could not be read (the rest is then from the last read, or empty). */
  problem?: string;
  /** When it was read (ms since the epoch). */
  at: number;
}

// Types, not interfaces: a contract's requests and notifications are records (Contract), which an interface is not.
export type ProfileContract = {
  requests: {
    ready: { params: undefined; result: ProfileView | null };
    /** Opens the deployment's subgraph.yaml at a 0-based line (the calls: hint's handler). */
    openManifest: { params: { line: number }; result: undefined };
  };
  notifications: {
    profile: ProfileView;
  };
};
