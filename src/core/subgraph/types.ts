/**
 * The vocabulary of subgraph validation: positions, findings and the quick fixes they carry.
 * Lines and characters are 0-based, like VS Code's and LSP's `Position`.
 */

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info';

/** One text change: replace `range` (empty for an insertion) by `text`. */
export interface TextEdit {
  range: Range;
  text: string;
}

/**
 * A quick fix: the edits to apply to `file`, plus the data behind them so an editor can offer
 * a richer action than the text (e.g. open the mapping at the new handler).
 */
export type Fix =
  | { kind: 'replace'; title: string; file: string; edits: TextEdit[] }
  | { kind: 'add-entity'; title: string; file: string; edits: TextEdit[]; schemaFile: string; entity: string }
  | {
      kind: 'add-handler';
      title: string;
      file: string;
      edits: TextEdit[];
      mappingFile: string;
      handler: string;
      /** The event the handler receives, when it is an event handler. */
      event?: { name: string; signature: string; params: EventParam[] };
    };

/** What a finding asks the editor to run, beyond editing text. */
export type FindingAction = 'run-codegen';

export interface Finding {
  /** The file the range points into: the manifest path as given, or a file resolved from it. */
  file: string;
  range: Range;
  severity: Severity;
  /** One line, no trailing period needed by callers. */
  message: string;
  /** Stable rule id, e.g. `unknown-key`, `event-not-in-abi`. */
  code: string;
  fix?: Fix;
  /**
   * A second fix, offered after `fix`: when `fix` changes a misspelt name to the near match
   * (see nearMatch.ts), this one creates what the name as written asks for (a handler stub, an
   * entity type), for when the name was meant.
   */
  alternative?: Fix;
  /** One fix for every finding of this rule in the file (the same object on each of them). */
  fixAll?: Fix;
  action?: FindingAction;
}

export interface EventParam {
  name: string;
  type: string;
  indexed: boolean;
}

/**
 * Where validation reads files. The editor supplies unsaved buffers through it; the CLI and the
 * tests read the disk (see `nodeFileSource`). Both return undefined for a missing file.
 */
export interface FileSource {
  /** The text; undefined when missing; throws a FileReadError (core/files) for any other problem. */
  read(path: string): string | undefined;
  /** Last modification time in ms since the epoch. */
  mtime(path: string): number | undefined;
  /**
   * The raw bytes (a compiled mapping's .wasm); undefined when missing. Optional: without it,
   * handlers of compiled manifests are not checked.
   */
  readBytes?(path: string): Uint8Array | undefined;
}
