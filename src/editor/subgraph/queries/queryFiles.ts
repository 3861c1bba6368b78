/**
 * GraphQL query files for a subgraph record: "New Query" writes each entity's default list query
 * (core) into an editor tied to the record by `# @subgraph <name>`; a "Run" lens above each
 * operation checks it against the subgraph's schema (unknown fields become diagnostics where
 * they are, and nothing is sent) and shows the answer in the results panel.
 */
import type { GraphQLSchema } from 'graphql';
import * as vscode from 'vscode';
import { buildQuerySchema, validateQuery, type QueryDiagnostic } from '../../../core/subgraph/query/apiSchema';
import { defaultListQueries, HEALTH_QUERY } from '../../../core/subgraph/query/build';
import { entityModel } from '../../../core/subgraph/query/entities';
import { operationAt, operationText, parseQueryFile, subgraphDirective, type QueryFile } from '../../../core/subgraph/query/file';
import { queryTabName } from '../../../core/subgraph/query/tabName';
import type { QueryOutcome } from '../../../core/subgraph/query/client';
import type { SubgraphRecord } from '../../../core/subgraph/graphnode/records';
import { COMMANDS } from '../../ids';
import { DocumentLanguage, targetLens } from '../../kit/documents';
import { readWorkspaceText } from '../../readFile';
import { besideManifest, type Manifests } from '../manifests';
import { resolveManifest, resolveRecord } from '../pickers';
import type { SubgraphStore } from '../records/store';
import type { QueryResults } from './results';

export const QUERY_LANGUAGE = 'graphql';
/** What a query file says of its subgraph while the local graph-node, which may serve it, comes up. */
export const WAITING_FOR_LOCAL_NODE = 'waiting for the local graph-node';

export interface QueryDeps {
  store: SubgraphStore;
  manifests: Manifests;
  results: QueryResults;
}

export class QueryFiles implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly language = new DocumentLanguage(QUERY_LANGUAGE, 'graphql-query', parseQueryFile, {
    lineOf: (file) => file.subgraph?.line,
    pick: (file) => resolveRecord(this.deps.store, undefined, "Send This File's Queries to Which Subgraph?", this.recordOf(file)),
    text: (record) => subgraphDirective(record.name),
  });
  /** Picks the record a query file goes to and writes it as the file's `# @subgraph` line. */
  readonly chooseSubgraph = (uri?: vscode.Uri) => this.language.choose(uri);
  readonly onDidChangeCodeLenses = this.language.onDidChangeLenses;
  /** Query schemas by schema file, rebuilt when its text changes. */
  private readonly schemas = new Map<string, { text: string; schema: GraphQLSchema | undefined }>();
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly deps: QueryDeps) {
    this.language.watch((d) => this.schedule(d), deps.store.onDidChange);
  }

  private recordOf(file: QueryFile): SubgraphRecord | undefined {
    return file.subgraph ? this.deps.store.byName(file.subgraph.name) : undefined;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const file = this.language.parsed(document);
    // A schema file has neither: no lenses there.
    if (!file.subgraph && !file.operations.some((op) => op.type === 'query')) return [];
    const record = this.recordOf(file);
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [
      targetLens(document, {
        noun: 'subgraph',
        icon: 'cloud',
        found: record?.name,
        named: file.subgraph?.name,
        waiting: this.deps.store.localPending() ? WAITING_FOR_LOCAL_NODE : undefined,
        command: COMMANDS.subgraphs.chooseForQuery,
        tooltip: 'Choose the subgraph this file queries',
      }),
    ];
    if (record && this.deps.store.uiUrlOf(record)) {
      lenses.push(new vscode.CodeLens(top, { title: '$(link-external) Open GraphQL UI', command: COMMANDS.subgraphs.openGraphqlUi, arguments: [record] }));
    }
    file.operations.forEach((op, index) => {
      if (op.type !== 'query') return;
      const at = document.positionAt(op.start);
      lenses.push(
        new vscode.CodeLens(new vscode.Range(at, at), {
          title: '$(play) Run',
          command: COMMANDS.subgraphs.runQuery,
          arguments: [document.uri, index],
          tooltip: `Send ${op.name ?? 'this query'}${record ? ` to ${record.name}` : ''}`,
        }),
      );
    });
    return lenses;
  }

  /** Re-checks a query file shortly after it changed (typing should not rebuild on every key). */
  private schedule(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        void this.check(document);
      }, 250),
    );
  }

  /** Marks what does not fit the subgraph's schema, operation by operation, and an unknown `# @subgraph`. */
  private async check(document: vscode.TextDocument): Promise<void> {
    if (document.isClosed) return;
    const version = document.version;
    const file = this.language.parsed(document);
    if (!file.subgraph) return void this.language.diagnostics.delete(document.uri);
    const record = this.recordOf(file);
    const found: vscode.Diagnostic[] = [];
    // While the local graph-node comes up its names are not known: the lens says it waits, no warning yet.
    if (!record && !this.deps.store.localPending()) {
      const line = document.lineAt(file.subgraph.line).range;
      found.push(diagnostic(line, `No subgraph named "${file.subgraph.name}" in chaindeck.subgraphs. Choose one with the "Subgraph:" lens at the top.`, vscode.DiagnosticSeverity.Warning));
    }
    const schema = record && (await this.schemaFor(record));
    if (schema) {
      const text = document.getText();
      const seen = new Set<string>();
      file.operations.forEach((_op, index) => {
        for (const d of validateQuery(schema, operationText(text, file, index))) {
          const key = `${d.start}:${d.end}:${d.message}`;
          if (seen.has(key)) continue;
          seen.add(key);
          found.push(toDiagnostic(document, d));
        }
      });
    }
    if (document.version === version) this.language.diagnostics.set(document.uri, found);
  }

  /** The query schema of the record's subgraph (from its subgraph.yaml's schema file), when known. */
  async schemaFor(record: SubgraphRecord): Promise<GraphQLSchema | undefined> {
    const manifest = this.deps.store.manifestForRecord(record);
    if (!manifest) return undefined;
    const schemaUri = await this.schemaFileOf(manifest);
    const text = schemaUri && (await readText(schemaUri));
    if (!schemaUri || text === undefined) return undefined;
    const cached = this.schemas.get(schemaUri.toString());
    if (cached?.text === text) return cached.schema;
    let schema: GraphQLSchema | undefined;
    try {
      schema = buildQuerySchema(text);
    } catch {
      // A schema that does not parse is the schema diagnostics' to report; queries go unchecked.
      schema = undefined;
    }
    this.schemas.set(schemaUri.toString(), { text, schema });
    return schema;
  }

  private async schemaFileOf(manifest: vscode.Uri): Promise<vscode.Uri | undefined> {
    const { schemaFile } = await this.deps.manifests.summary(manifest);
    return schemaFile ? besideManifest(manifest, schemaFile) : undefined;
  }

  /** A new query editor for a record: each entity's default list query, tied by `# @subgraph`. */
  async newQuery(arg: unknown): Promise<vscode.TextDocument | undefined> {
    const { store, manifests } = this.deps;
    const record = await resolveRecord(store, arg, 'New Query for Which Subgraph?');
    if (!record) return undefined;
    let manifest = store.manifestForRecord(record);
    if (!manifest || !(await manifests.all()).some((m) => m.toString() === manifest!.toString())) {
      manifest = (await manifests.all()).length ? await resolveManifest(manifests, `Which subgraph.yaml Is ${record.name} Built From?`) : undefined;
      if (manifest) await store.pair(manifest, record);
    }
    const schemaUri = manifest && (await this.schemaFileOf(manifest));
    const schemaText = schemaUri && (await readText(schemaUri));
    let queries: string[] = [];
    try {
      queries = schemaText ? [...defaultListQueries(entityModel(schemaText)).values()] : [];
    } catch {
      queries = [];
    }
    const header = [subgraphDirective(record.name), '# "Run" above an operation sends it to the subgraph\'s query URL; the results open beside.'];
    if (!queries.length) header.push('# No entity schema was found for this subgraph: here is its health query.');
    const body = queries.length ? queries : [`query Health ${HEALTH_QUERY}\n`];
    const content = [...header, '', ...body].join('\n');
    // Named, so its tab says which query (or subgraph) it is: an unnamed editor is titled by its first line, the `# @subgraph` comment.
    const names = parseQueryFile(body.join('\n')).operations.map((op) => op.name);
    const taken = new Set(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'untitled').map((d) => d.uri.path));
    const uri = vscode.Uri.from({ scheme: 'untitled', path: queryTabName(names, record.name, (name) => taken.has(name)) });
    let document = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), content);
    await vscode.workspace.applyEdit(edit);
    if (document.languageId !== QUERY_LANGUAGE) document = await vscode.languages.setTextDocumentLanguage(document, QUERY_LANGUAGE);
    await vscode.window.showTextDocument(document);
    return document;
  }

  /** Runs one operation of a query file (from its lens, or the one at the cursor). */
  async run(uri?: vscode.Uri, index?: number): Promise<QueryOutcome | undefined> {
    const editor = vscode.window.activeTextEditor;
    const opened = await this.language.opened(uri, 'Open a .graphql query file and put the cursor in a query.');
    if (!opened) return undefined;
    const { document } = opened;
    let file = opened.parsed;
    let record = this.recordOf(file);
    if (!record && file.subgraph && this.deps.store.localPending()) {
      void vscode.window.showInformationMessage(`${file.subgraph.name}: ${WAITING_FOR_LOCAL_NODE}. Run the query again once it is ready.`);
      return undefined;
    }
    if (!record) {
      record = await this.chooseSubgraph(document.uri);
      if (!record) return undefined;
      file = this.language.parsed(document);
    }
    const cursor = editor?.document === document ? document.offsetAt(editor.selection.active) : 0;
    const at = index ?? operationAt(file, cursor);
    const op = at === undefined ? undefined : file.operations[at];
    if (at === undefined || !op) {
      void vscode.window.showInformationMessage('This file has no query yet: write one, or use "New Query" on a subgraph.');
      return undefined;
    }
    if (op.type !== 'query') throw new Error(`Only queries are sent to a subgraph's query URL; this is a ${op.type}.`);
    const schema = await this.schemaFor(record);
    const outcome = await this.deps.results.run({ record, text: operationText(document.getText(), file, at), operation: op.name, paging: op.paging, schema });
    if (outcome?.kind === 'invalid') {
      this.language.diagnostics.set(
        document.uri,
        outcome.diagnostics.map((d) => toDiagnostic(document, d)),
      );
      const [first] = outcome.diagnostics;
      void vscode.window.showWarningMessage(`Not sent: the query does not fit ${record.name}'s schema. ${first.message} (line ${first.line}).`);
    }
    return outcome;
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.language.dispose();
  }
}

function toDiagnostic(document: vscode.TextDocument, d: QueryDiagnostic): vscode.Diagnostic {
  return diagnostic(new vscode.Range(document.positionAt(d.start), document.positionAt(d.end)), d.message, vscode.DiagnosticSeverity.Error);
}

function diagnostic(range: vscode.Range, message: string, severity: vscode.DiagnosticSeverity): vscode.Diagnostic {
  const d = new vscode.Diagnostic(range, message, severity);
  d.source = 'subgraph query';
  return d;
}

/** A file as the editor has it (unsaved edits included), else from disk. */
async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return await readWorkspaceText(uri);
  } catch {
    return undefined;
  }
}
