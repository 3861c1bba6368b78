/**
 * The Test Explorer's "Subgraph Tests": each subgraph.yaml of the workspace with its `gnd test`
 * files (what `gnd test` and `chaindeck subgraph test` run: tests/ beside it), each file one test labelled by its "name", with
 * a child per assertion; kept current by file watchers. Runs go through runner.ts.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FILE_CAPS } from '../../../core/files';
import { oneLine } from '../../../core/inert';
import { readWorkspaceText } from '../../readFile';
import { LineIndex } from '../../../core/subgraph/text';
import { toRange } from '../convert';
import { manifestLabel, type Manifests } from '../manifests';
import { findTestFiles, parseTestFile, type ReadTestFile } from '../../../core/gndtest/testFile';

export const CONTROLLER_ID = 'chaindeckSubgraphTests';
/** Test files anywhere a manifest may have them; which manifest a file belongs to is testFilesOf's rule. A watcher each: one glob of braces was not followed. */
const TEST_FILE_GLOBS = ['**/tests/**/*.json'];
/** How much of a query an assertion's label shows. */
const LABEL_CHARS = 80;
/**
 * How long after a file event the files are read: a burst (a save, a capture, a checkout) is one
 * read, and a file seen while it was still being written is read again once complete (the
 * watcher folds a create and its first write into one event).
 */
const SETTLE_MS = 150;

/** What an item of the tree is, for the runner. */
export type TestNode =
  { kind: 'manifest'; manifest: vscode.Uri } | { kind: 'file'; manifest: vscode.Uri; file: vscode.Uri } | { kind: 'assertion'; file: vscode.Uri; index: number; query: string };

/** The manifest's test files: what gnd and the CLI run by default (tests/, its subfolders too), sorted. */
export function testFilesOf(manifest: string): string[] {
  try {
    return findTestFiles(manifest);
  } catch {
    return []; // none there (or unreadable): the tree shows none
  }
}

export class SubgraphTestTree implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController(CONTROLLER_ID, 'Subgraph Tests');
  private readonly nodes = new WeakMap<vscode.TestItem, TestNode>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the items were read again (tests wait for it). */
  readonly onDidChange = this.changed.event;
  private discovering: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly manifests: Manifests) {
    const later = () => this.later();
    const watchers = TEST_FILE_GLOBS.map((glob) => vscode.workspace.createFileSystemWatcher(glob));
    this.subscriptions = [...watchers, ...watchers.flatMap((w) => [w.onDidCreate(later), w.onDidDelete(later), w.onDidChange(later)]), manifests.onDidChange(later), this.changed];
    this.controller.resolveHandler = (item) => (item ? Promise.resolve() : this.discover());
    this.controller.refreshHandler = () => this.discover();
  }

  nodeOf(item: vscode.TestItem): TestNode | undefined {
    return this.nodes.get(item);
  }

  /** Every manifest with tests, and their files, read again (calls while one runs share the next). */
  discover(): Promise<void> {
    const next = (this.discovering ?? Promise.resolve()).then(() => this.discoverNow());
    this.discovering = next.catch(() => undefined);
    return next;
  }

  private async discoverNow(): Promise<void> {
    const items: vscode.TestItem[] = [];
    for (const manifest of await this.manifests.all()) {
      const files = testFilesOf(manifest.fsPath);
      if (!files.length) continue;
      const id = manifest.toString();
      const item = this.controller.items.get(id) ?? this.controller.createTestItem(id, manifestLabel(manifest), manifest);
      this.nodes.set(item, { kind: 'manifest', manifest });
      const children: vscode.TestItem[] = [];
      for (const file of files.map((f) => vscode.Uri.file(f))) {
        const child = item.children.get(file.toString()) ?? this.controller.createTestItem(file.toString(), path.basename(file.fsPath), file);
        this.nodes.set(child, { kind: 'file', manifest, file });
        await this.outline(child, file);
        children.push(child);
      }
      item.children.replace(children);
      items.push(item);
    }
    this.controller.items.replace(items);
    this.changed.fire();
  }

  /** Discovery once the files settled. */
  private later(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.discover(), SETTLE_MS);
  }

  /** The file's item labelled by its name, at its name, with a child per assertion at the assertion; a file that does not parse says why. */
  private async outline(item: vscode.TestItem, file: vscode.Uri): Promise<void> {
    let text: string;
    try {
      text = await readWorkspaceText(file, FILE_CAPS.manifest);
    } catch (error) {
      item.error = `Cannot read the test file: ${(error as Error).message}`;
      item.children.replace([]);
      return;
    }
    let read: ReadTestFile;
    try {
      read = parseTestFile(vscode.workspace.asRelativePath(file), text);
    } catch (error) {
      item.error = oneLine((error as Error).message, 300);
      item.children.replace([]);
      return;
    }
    const { test, locations } = read;
    const span = (s: { offset: number; length: number }) => ({ start: s.offset, end: s.offset + s.length });
    const outline = {
      name: test.name,
      nameAt: locations.name && span(locations.name),
      assertions: (test.assertions ?? []).map((a, i) => ({ query: a.query, at: span(locations.assertions[i]?.span ?? { offset: 0, length: 0 }) })),
    };
    item.error = undefined;
    const lines = new LineIndex(text);
    item.label = outline.name ? oneLine(outline.name, LABEL_CHARS) : path.basename(file.fsPath);
    item.description = outline.name ? path.basename(file.fsPath) : undefined;
    item.range = outline.nameAt ? toRange(lines.range(outline.nameAt.start, outline.nameAt.end)) : new vscode.Range(0, 0, 0, 0);
    item.children.replace(
      outline.assertions.map((a, index) => {
        const child = this.controller.createTestItem(`${file.toString()}#${index}`, oneLine(a.query.replace(/\s+/g, ' ').trim(), LABEL_CHARS) || `assertion ${index + 1}`, file);
        child.range = toRange(lines.range(a.at.start, a.at.end));
        this.nodes.set(child, { kind: 'assertion', file, index, query: a.query });
        return child;
      }),
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
    this.controller.dispose();
  }
}
