/**
 * Diagnostics for subgraphs. Every manifest of the workspace (and any manifest open in an editor)
 * is validated by core once edits settle, with the unsaved text of open documents, and again
 * whenever a file it read changes, in an editor or on disk. Findings land on the file they
 * name: the manifest, schema.graphql, a mapping. Nothing is run, so this works untrusted.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ValidationCache } from '../../../core/subgraph/rules/context';
import { parseManifest, type ManifestDoc } from '../../../core/subgraph/manifest/manifestDoc';
import type { Finding } from '../../../core/subgraph/types';
import { validateSubgraph } from '../../../core/subgraph/rules/validate';
import { MANIFEST_GLOB, MANIFEST_SEARCH_EXCLUDE } from '../../ids';
import { errorText } from '../../kit/errors';
import type { Log } from '../../log';
import { toDiagnostic } from '../convert';
import { isManifestFile } from '../../../core/subgraph/copies';
import { looksLikeManifest, prefetchedFiles } from './files';
import type { ProxyHints } from './proxyHints';
import type { ExcludedFolder } from '../localnode/dataFolder';

/** Long enough to skip the keystrokes of a word, short enough to feel immediate. */
const DEBOUNCE_MS = 250;

interface Manifest {
  file: string;
  /** A workspace manifest is checked while closed too; any other one only while open. */
  inWorkspace: boolean;
  /** Bumped by every request to validate: a run that finds it changed is stale and stops. */
  generation: number;
  timer?: ReturnType<typeof setTimeout>;
  /** Every path the last run read or looked at, present or not, with the document version read. */
  depends: Map<string, number | undefined>;
  findings: Finding[];
  doc?: ManifestDoc;
}

/** A diagnostic shown, with the finding it came from and the manifest whose run found it. */
export interface Shown {
  diagnostic: vscode.Diagnostic;
  finding: Finding;
  manifest: string;
}

const fileOf = (uri: vscode.Uri) => path.normalize(uri.fsPath);
const under = (file: string, folder: string) => file === folder || file.startsWith(folder + path.sep);

export class SubgraphDiagnostics implements vscode.Disposable {
  /** Parsed ABIs, schemas and mappings, by content: shared by every run, completion and hover. */
  readonly cache = new ValidationCache();
  private readonly collection = vscode.languages.createDiagnosticCollection('chaindeck.subgraph');
  private readonly manifests = new Map<string, Manifest>();
  private readonly shown = new Map<string, Shown[]>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly log: Log,
    private readonly proxies: ProxyHints,
    /** A folder whose manifests are not the user's (the local graph-node's data): never checked. */
    private readonly excluded?: ExcludedFolder,
  ) {
    // Everything: a deleted folder is reported as the folder alone, and generated/ counts too.
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.subscriptions = [
      this.collection,
      watcher,
      watcher.onDidCreate((uri) => this.onDisk(fileOf(uri), false)),
      watcher.onDidChange((uri) => this.onDisk(fileOf(uri), false)),
      watcher.onDidDelete((uri) => this.onDisk(fileOf(uri), true)),
      vscode.workspace.onDidOpenTextDocument((d) => this.onOpen(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === 'file' && e.contentChanges.length) this.touched(fileOf(e.document.uri));
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.onClose(d)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.discover()),
      proxies.onDidChange(() => this.manifests.forEach((m) => this.schedule(m))),
    ];
    if (excluded)
      this.subscriptions.push(
        excluded.onDidChange(() => {
          for (const m of [...this.manifests.values()]) if (excluded.contains(m.file)) this.forget(m);
          void this.discover();
        }),
      );
    vscode.workspace.textDocuments.forEach((d) => this.onOpen(d));
    void this.discover();
  }

  isManifest(document: vscode.TextDocument): boolean {
    const file = fileOf(document.uri);
    return document.uri.scheme === 'file' && (this.manifests.has(file) || (isManifestFile(file) && !this.excluded?.contains(file)));
  }

  /** The parsed manifest of a document: the last run's when the text is the same, else parsed now. */
  docFor(document: vscode.TextDocument): ManifestDoc | undefined {
    const text = document.getText();
    const last = this.manifests.get(fileOf(document.uri))?.doc;
    if (last?.text === text) return last;
    try {
      return parseManifest(text);
    } catch {
      return undefined;
    }
  }

  /**
   * The finding behind a diagnostic VS Code hands back (code actions get copies), while the files
   * it is about read as they did when it was found: edits of an older text would land wrong.
   */
  shownFor(uri: vscode.Uri, diagnostic: vscode.Diagnostic): Shown | undefined {
    const shown = this.shown.get(fileOf(uri))?.find((s) => sameDiagnostic(s.diagnostic, diagnostic));
    const m = shown && this.manifests.get(shown.manifest);
    if (!shown || !m) return undefined;
    const open = new Map(vscode.workspace.textDocuments.map((d) => [fileOf(d.uri), d]));
    const readAsFound = (file: string) => {
      const document = open.get(path.normalize(file));
      const version = m.depends.get(path.normalize(file));
      return !document || (version === undefined ? !document.isDirty : version === document.version);
    };
    const { finding } = shown;
    return readAsFound(finding.file) && [finding.fix, finding.alternative].every((fix) => !fix || readAsFound(fix.file)) ? shown : undefined;
  }

  private async discover(): Promise<void> {
    const found = await vscode.workspace.findFiles(MANIFEST_GLOB, MANIFEST_SEARCH_EXCLUDE, 1000);
    for (const file of found.map(fileOf)) if (isManifestFile(file)) this.track(file, true);
  }

  /** Starts checking a manifest (or checks it again soon, if known). */
  private track(file: string, inWorkspace: boolean): void {
    if (this.excluded?.contains(file)) return;
    let m = this.manifests.get(file);
    if (!m) {
      m = { file, inWorkspace, generation: 0, depends: new Map([[file, undefined]]), findings: [] };
      this.manifests.set(file, m);
    }
    m.inWorkspace ||= inWorkspace;
    this.schedule(m);
  }

  private forget(m: Manifest): void {
    clearTimeout(m.timer);
    this.manifests.delete(m.file);
    this.publish(m, []);
  }

  private onOpen(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'file') return;
    const file = fileOf(document.uri);
    const named = isManifestFile(file);
    if (named || looksLikeManifest(document)) this.track(file, named && vscode.workspace.getWorkspaceFolder(document.uri) !== undefined);
  }

  private onClose(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'file') return;
    const file = fileOf(document.uri);
    const m = this.manifests.get(file);
    if (m && !m.inWorkspace) this.forget(m);
    // Unsaved edits were dropped or saved: the disk speaks for the file again.
    else this.touched(file);
  }

  private onDisk(file: string, deleted: boolean): void {
    if (deleted) {
      for (const m of [...this.manifests.values()]) if (under(m.file, file)) this.forget(m);
    } else if (isManifestFile(file) && vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))) {
      this.track(file, true);
    }
    // A folder may be reported alone (created or deleted with its files): what is under it counts.
    for (const m of this.manifests.values()) if ([...m.depends.keys()].some((d) => under(d, file))) this.schedule(m);
  }

  /** A file changed: check again every manifest that read it. */
  private touched(file: string): void {
    for (const m of this.manifests.values()) if (m.depends.has(file)) this.schedule(m);
  }

  private schedule(m: Manifest): void {
    const generation = ++m.generation;
    clearTimeout(m.timer);
    m.timer = setTimeout(() => void this.run(m, generation), DEBOUNCE_MS);
  }

  private async run(m: Manifest, generation: number): Promise<void> {
    const { files, used } = await prefetchedFiles(m.depends.keys());
    // Edited again while the files were read, or gone: a newer run has the say.
    if (generation !== m.generation || this.manifests.get(m.file) !== m) return;
    try {
      const result = validateSubgraph(m.file, files, { cache: this.cache });
      m.depends = used;
      m.doc = result.doc;
      this.publish(m, [...result.findings, ...this.proxies.findings(m.file, result.doc)]);
    } catch (error) {
      // Core promises not to throw; should it, the last diagnostics stay and the log says why.
      this.log.warn(`Validating ${m.file} failed: ${errorText(error)}`);
    }
  }

  /** Replaces a manifest's findings and refreshes every file they touch (before or now). */
  private publish(m: Manifest, findings: Finding[]): void {
    const files = new Set([...m.findings, ...findings].map((f) => path.normalize(f.file)));
    m.findings = findings;
    for (const file of files) this.refresh(file);
  }

  /** A file's diagnostics: what every manifest found in it, once (manifests may share a schema). */
  private refresh(file: string): void {
    const seen = new Set<string>();
    const shown: Shown[] = [];
    for (const m of this.manifests.values()) {
      for (const finding of m.findings) {
        if (path.normalize(finding.file) !== file) continue;
        const { start, end } = finding.range;
        const key = `${start.line}:${start.character}-${end.line}:${end.character}\0${finding.code}\0${finding.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        shown.push({ diagnostic: toDiagnostic(finding), finding, manifest: m.file });
      }
    }
    if (shown.length) this.shown.set(file, shown);
    else this.shown.delete(file);
    this.collection.set(
      vscode.Uri.file(file),
      shown.map((s) => s.diagnostic),
    );
  }

  dispose(): void {
    for (const m of this.manifests.values()) clearTimeout(m.timer);
    this.subscriptions.forEach((s) => s.dispose());
  }
}

function sameDiagnostic(a: vscode.Diagnostic, b: vscode.Diagnostic): boolean {
  const code = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);
  return a.source === b.source && a.message === b.message && code(a) === code(b) && a.range.isEqual(b.range);
}
