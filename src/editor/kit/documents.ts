/**
 * The parts every file language here has: each document's parse (kept until its next edit), its
 * diagnostics, code lenses redrawn when what they name changes, a check run on every open
 * document, and the directive that says where a file sends.
 */
import * as vscode from 'vscode';

export class DocumentLanguage<T, R = never> implements vscode.Disposable {
  readonly diagnostics: vscode.DiagnosticCollection;
  private readonly cache = new WeakMap<vscode.TextDocument, { version: number; parsed: T }>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeLenses = this.lensesChanged.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    /** The language of its documents: the others are not checked. */
    readonly languageId: string,
    diagnosticsName: string,
    private readonly parse: (text: string) => T,
    /** Where a file sends and how another is chosen, for a language whose files send somewhere. */
    private readonly directive?: Directive<T, R>,
  ) {
    this.diagnostics = vscode.languages.createDiagnosticCollection(diagnosticsName);
  }

  /** The document's parse, parsed again only after an edit. */
  parsed(document: vscode.TextDocument): T {
    const cached = this.cache.get(document);
    if (cached?.version === document.version) return cached.parsed;
    const parsed = this.parse(document.getText());
    this.cache.set(document, { version: document.version, parsed });
    return parsed;
  }

  /**
   * Runs `check` on every open document of the language now and on each one opened or changed; when `dependsOn`
   * fires (what the lenses and diagnostics name changed), redraws the lenses and checks them all
   * again. A closed document's diagnostics go.
   */
  watch(check: (document: vscode.TextDocument) => void, dependsOn: vscode.Event<unknown>): void {
    const checkOne = (document: vscode.TextDocument) => {
      if (document.languageId === this.languageId) check(document);
    };
    const checkAll = () => vscode.workspace.textDocuments.forEach(checkOne);
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument(checkOne),
      vscode.workspace.onDidChangeTextDocument((e) => checkOne(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.diagnostics.delete(d.uri)),
      dependsOn(() => {
        this.lensesChanged.fire();
        checkAll();
      }),
    );
    checkAll();
  }

  /** The document a command works on (see `documentFor`) and its parse; without one, tells the user `hint`. */
  async opened(uri: vscode.Uri | undefined, hint: string): Promise<{ document: vscode.TextDocument; parsed: T } | undefined> {
    const document = await documentFor(uri, this.languageId);
    if (!document) void vscode.window.showInformationMessage(hint);
    return document && { document, parsed: this.parsed(document) };
  }

  /**
   * Lets the user pick where a file sends and writes it as the file's directive. The file is the
   * one at `uri` (a lens passes it), else the active editor's.
   */
  async choose(uri: vscode.Uri | undefined): Promise<R | undefined> {
    const document = this.directive && (await documentFor(uri, this.languageId));
    if (!this.directive || !document) return undefined;
    const parsed = this.parsed(document);
    const chosen = await this.directive.pick(parsed);
    if (chosen === undefined) return undefined;
    await writeDirective(document, this.directive.lineOf(parsed), this.directive.text(chosen));
    return chosen;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.diagnostics.dispose();
    this.lensesChanged.dispose();
  }
}

/** How a file says where it sends (`# @node …`, `# @subgraph …`), and how the user picks another. */
interface Directive<T, R> {
  /** The line that holds the directive now, if any. */
  lineOf(parsed: T): number | undefined;
  /** Lets the user pick where the file sends, given its parse. */
  pick(parsed: T): Thenable<R | undefined>;
  /** The directive's line for what was picked. */
  text(chosen: R): string;
}

interface Target {
  /** What a file sends to, e.g. 'node' or 'subgraph'. */
  noun: string;
  icon: string;
  /** The name of the one it sends to, when there is one. */
  found?: string;
  /** The name the file gives, when no such one exists. */
  named?: string;
  /** Why the one it names may exist but is not known yet, e.g. "waiting for the local graph-node": said instead of "no … named". */
  waiting?: string;
  /** Chooses another: run with the document's URI. */
  command: string;
  tooltip: string;
}

/** The lens at the top of a file that sends somewhere: where it sends, that the one it names does not exist, or an offer to choose. */
export function targetLens(document: vscode.TextDocument, { noun, icon, found, named, waiting, command, tooltip }: Target): vscode.CodeLens {
  const label = `${noun[0].toUpperCase()}${noun.slice(1)}`;
  const missing = waiting ? `$(loading~spin) ${label}: ${named}, ${waiting}` : `$(warning) ${label}: no ${noun} named "${named}"`;
  const title = found ? `$(${icon}) ${label}: ${found}` : named ? missing : `$(${icon}) ${label}: choose…`;
  return new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title, command, arguments: [document.uri], tooltip });
}

/** The document a command works on: the one a lens passed, else the active editor's; only one in `languageId`. */
async function documentFor(uri: vscode.Uri | undefined, languageId: string): Promise<vscode.TextDocument | undefined> {
  const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
  return document?.languageId === languageId ? document : undefined;
}

/** Writes a file's directive (`# @node …`, `# @subgraph …`): over the line that holds it now, else as the first line. */
function writeDirective(document: vscode.TextDocument, atLine: number | undefined, directive: string): Thenable<boolean> {
  const edit = new vscode.WorkspaceEdit();
  if (atLine !== undefined) edit.replace(document.uri, document.lineAt(atLine).range, directive);
  else edit.insert(document.uri, new vscode.Position(0, 0), `${directive}\n`);
  return vscode.workspace.applyEdit(edit);
}
