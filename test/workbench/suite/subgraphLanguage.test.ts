/**
 * The subgraph language features inside the real extension host, on a copy of the spec's
 * tutorial subgraph in the workspace: diagnostics while editing (unsaved), quick fixes,
 * completions, hovers, and the EIP-1967 proxy hint read from the runner's anvil.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import { activateTestApi, anvil, until } from './helpers';

const EVENT = 'Approval(indexed address,indexed address,uint256)';
const WRONG_EVENT = 'Approval(address,address,uint256)';
const APPROVAL_TOPIC0 = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
/** Unused by the other suites, so its implementation slot is ours alone. */
const PROXY = '0x00000000000000000000000000000000c0ffee5b';
const IMPLEMENTATION = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';

const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'chaindeck');
const describeAll = (uri: vscode.Uri) => JSON.stringify(ours(uri).map((d) => [d.code, d.message]));
const text = (c: vscode.MarkdownString | vscode.MarkedString) => (typeof c === 'string' ? c : c.value);

describe('subgraph language', () => {
  let api: TestApi;
  let folder: string;
  let manifest: vscode.Uri;
  let schema: vscode.Uri;
  let document: vscode.TextDocument;

  /** Replaces the first occurrence of `from` in the manifest, unsaved, as typing would. */
  async function replaceInManifest(from: string, to: string): Promise<vscode.Range> {
    const at = document.getText().indexOf(from);
    assert.ok(at >= 0, `'${from}' is not in the manifest`);
    const range = new vscode.Range(document.positionAt(at), document.positionAt(at + from.length));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(manifest, range, to);
    assert.ok(await vscode.workspace.applyEdit(edit));
    return new vscode.Range(range.start, range.start.translate(0, to.length));
  }

  function positionOf(needle: string, offset = 0): vscode.Position {
    const at = document.getText().indexOf(needle);
    assert.ok(at >= 0, `'${needle}' is not in the manifest`);
    return document.positionAt(at + offset);
  }

  async function fixFor(uri: vscode.Uri, diagnostic: vscode.Diagnostic, title: RegExp): Promise<vscode.CodeAction> {
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, diagnostic.range);
    const action = actions.find((a): a is vscode.CodeAction => title.test(a.title) && 'kind' in a);
    assert.ok(action, `no code action like ${title} among ${JSON.stringify(actions.map((a) => a.title))}`);
    return action;
  }

  before(async () => {
    const { ext, api: exported } = await activateTestApi('activate() returned no test API');
    api = exported;
    const workspace = process.env.CHAINDECK_TEST_WORKSPACE ?? vscode.workspace.workspaceFolders![0].uri.fsPath;
    folder = path.join(workspace, `subgraph-language-${process.pid}-${Date.now()}`);
    fs.cpSync(path.join(ext.extensionPath, 'test', 'fixtures', 'subgraphs', 'tutorial'), folder, { recursive: true });
    manifest = vscode.Uri.file(path.join(folder, 'subgraph.yaml'));
    schema = vscode.Uri.file(path.join(folder, 'schema.graphql'));
    document = await vscode.workspace.openTextDocument(manifest);
    await vscode.window.showTextDocument(document);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('finds nothing wrong with the tutorial subgraph', async () => {
    // Validation runs 250 ms after a change; give it time to have run, then expect silence.
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(ours(manifest), [], describeAll(manifest));
    assert.deepEqual(ours(schema), []);
  });

  it('marks an event signature missing from the ABI while editing, and fixes it from the ABI', async () => {
    const written = await replaceInManifest(EVENT, WRONG_EVENT);
    const diagnostic = await until('the event-not-in-abi diagnostic', () => ours(manifest).find((d) => d.code === 'event-not-in-abi'));
    assert.deepEqual(
      [diagnostic.range.start.line, diagnostic.range.start.character, diagnostic.range.end.line, diagnostic.range.end.character],
      [written.start.line, written.start.character, written.end.line, written.end.character],
    );
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.match(diagnostic.message, /not present in ABI 'ERC20'/);

    const fix = await fixFor(manifest, diagnostic, /^Change to Approval\(indexed address,indexed address,uint256\)$/);
    assert.equal(fix.isPreferred, true);
    assert.ok(fix.edit && (await vscode.workspace.applyEdit(fix.edit)));
    assert.ok(document.getText().includes(`event: ${EVENT}`));
    await until('no diagnostics after the fix', () => (ours(manifest).length === 0 ? true : undefined));
  });

  it('adds an entity the mapping names to schema.graphql', async () => {
    await replaceInManifest('        - ApprovalQuery\n', '        - ApprovalQuery\n        - Transfer\n');
    const diagnostic = await until('the entity-not-in-schema diagnostic', () => ours(manifest).find((d) => d.code === 'entity-not-in-schema'));
    assert.equal(document.getText(diagnostic.range), 'Transfer');

    const fix = await fixFor(manifest, diagnostic, /^Add entity Transfer to schema\.graphql$/);
    assert.ok(fix.edit && (await vscode.workspace.applyEdit(fix.edit)));
    const schemaText = (await vscode.workspace.openTextDocument(schema)).getText();
    // The event of the same name gives the fields.
    assert.match(schemaText, /type Transfer @entity\(immutable: true\) \{\n {2}id: Bytes!\n {2}from: Bytes!\n {2}to: Bytes!\n {2}value: BigInt!\n\}/);
    await until('no diagnostics after the fix', () => (ours(manifest).length === 0 ? true : undefined));
  });

  it('completes networks, events, entities and keys', async () => {
    const labels = async (position: vscode.Position) => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', manifest, position);
      return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    };
    assert.ok((await labels(positionOf('network: mainnet', 'network: '.length))).includes('mainnet'));
    const events = await labels(positionOf(`event: ${EVENT}`, 'event: '.length));
    assert.ok(events.includes(EVENT) && events.includes('Transfer(indexed address,indexed address,uint256)'), JSON.stringify(events));
    assert.ok((await labels(positionOf('- ApprovalQuery', 2))).includes('Transfer'));
    assert.ok((await labels(positionOf('handler: handleApproval', 'handler: '.length))).includes('handleApproval'));
    // Keys of the source map not written yet.
    const keys = await labels(positionOf('startBlock'));
    assert.ok(keys.includes('endBlock') && !keys.includes('abi'), JSON.stringify(keys));
  });

  it('shows topic0 and the ABI event on hover, and an entity’s queries', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', manifest, positionOf(`event: ${EVENT}`, 'event: Appr'.length));
    const shown = hovers.flatMap((h) => h.contents.map(text)).join('\n');
    assert.ok(shown.includes(APPROVAL_TOPIC0), shown);
    assert.match(shown, /event Approval\(address indexed owner, address indexed spender, uint256 value\)/);

    const entity = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', manifest, positionOf('- ApprovalQuery', 4));
    const entityText = entity.flatMap((h) => h.contents.map(text)).join('\n');
    assert.match(entityText, /approvalQueries/);
    assert.match(entityText, /spender: Bytes!/);
  });

  it('shows an entity in schema.graphql, an ABI’s summary and an address’s checksum on hover', async () => {
    const hover = async (uri: vscode.Uri, position: vscode.Position) =>
      (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position)).flatMap((h) => h.contents.map(text)).join('\n');
    const schemaDocument = await vscode.workspace.openTextDocument(schema);
    assert.equal(schemaDocument.languageId, 'graphql');
    assert.match(await hover(schema, schemaDocument.positionAt(schemaDocument.getText().indexOf('ApprovalQuery') + 3)), /approvalQueries/);
    const abi = await hover(manifest, positionOf('abi: ERC20', 'abi: E'.length));
    assert.ok(abi.includes('Transfer(indexed address,indexed address,uint256)') && abi.includes('approve(address,uint256)'), abi);
    assert.match(await hover(manifest, positionOf('0xA0b86991', 4)), /EIP-55 checksum: \*\*valid\*\*/);
  });

  it('offers "Change to" the exported handler first for a misspelt one, and the stub under the name as written after it', async () => {
    await replaceInManifest('handler: handleApproval', 'handler: handleApprovalEvent');
    const diagnostic = await until('the handler-not-exported diagnostic', () => ours(manifest).find((d) => d.code === 'handler-not-exported'));
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', manifest, diagnostic.range);
    const titles = actions.map((a) => a.title);
    assert.equal(titles[0], 'Change to handleApproval', JSON.stringify(titles));
    assert.ok(titles.includes('Add handler handleApprovalEvent to mapping.ts'), JSON.stringify(titles));
    const change = actions[0] as vscode.CodeAction;
    assert.ok(change.isPreferred && change.edit && (await vscode.workspace.applyEdit(change.edit)));
    assert.equal(document.getText().includes('handler: handleApproval\n'), true);
    await until('no diagnostics after the change', () => (ours(manifest).length === 0 ? true : undefined));
  });

  it('adds a handler stub to the mapping and shows it', async () => {
    await replaceInManifest('handler: handleApproval', 'handler: handleAllowance');
    const diagnostic = await until('the handler-not-exported diagnostic', () => ours(manifest).find((d) => d.code === 'handler-not-exported'));
    const fix = await fixFor(manifest, diagnostic, /^Add handler handleAllowance to mapping\.ts$/);
    assert.ok(fix.edit && (await vscode.workspace.applyEdit(fix.edit)));
    assert.ok(fix.command, 'the fix should show the new handler');
    await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, path.join(folder, 'src', 'mapping.ts'));
    assert.match(editor.document.lineAt(editor.selection.active.line).text, /^export function handleAllowance\(event: Approval\): void \{$/);
    await until('no diagnostics after the fix', () => (ours(manifest).length === 0 ? true : undefined));
    await vscode.window.showTextDocument(document);
  });

  it('offers to run graph codegen when generated code is older than the schema', async () => {
    const generated = path.join(folder, 'generated', 'schema.ts');
    fs.mkdirSync(path.dirname(generated), { recursive: true });
    fs.writeFileSync(generated, '// generated\n');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(generated, anHourAgo, anHourAgo);
    const diagnostic = await until('the generated-stale warning', () => ours(manifest).find((d) => d.code === 'generated-stale'));
    assert.equal(document.getText(diagnostic.range), './schema.graphql');
    const action = await fixFor(manifest, diagnostic, /^Run graph codegen$/);
    assert.ok(action.command);
    // The subgraph tasks feature runs it; a stand-in records the call when that is not there.
    const received: unknown[] = [];
    const registered = (await vscode.commands.getCommands(true)).includes('chaindeck.subgraph.codegen');
    const standIn = registered ? undefined : vscode.commands.registerCommand('chaindeck.subgraph.codegen', (uri: unknown) => received.push(uri));
    try {
      if (standIn) {
        await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
        assert.equal((received[0] as vscode.Uri | undefined)?.fsPath, manifest.fsPath);
      } else {
        assert.equal((action.command.arguments?.[0] as vscode.Uri).fsPath, manifest.fsPath);
      }
    } finally {
      standIn?.dispose();
    }
    fs.rmSync(path.dirname(generated), { recursive: true, force: true });
    await until('no diagnostics once generated/ is gone', () => (ours(manifest).length === 0 ? true : undefined));
  });

  it('hints that an address is an EIP-1967 proxy, naming the implementation', async () => {
    const node = api.nodes.statusBar.node();
    assert.equal(node?.url, process.env.CHAINDECK_TEST_ANVIL_URL, 'the selected node should be the runner’s anvil');
    await anvil('anvil_setStorageAt', [PROXY, IMPLEMENTATION_SLOT, `0x${IMPLEMENTATION.slice(2).toLowerCase().padStart(64, '0')}`]);
    await anvil('evm_mine', []);
    const written = await replaceInManifest('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', PROXY);
    const hint = await until('the proxy hint', () => ours(manifest).find((d) => d.code === 'eip1967-proxy'));
    assert.equal(hint.severity, vscode.DiagnosticSeverity.Information);
    // The address's value, quotes included.
    assert.ok(hint.range.isEqual(new vscode.Range(written.start.translate(0, -1), written.end.translate(0, 1))), `hint at ${JSON.stringify(hint.range)}`);
    assert.equal(hint.message, `This address is an EIP-1967 proxy; the ABI must come from the implementation contract ${IMPLEMENTATION} (the proxy's address is the one that emits events)`);
    assert.deepEqual(
      ours(manifest).filter((d) => d !== hint),
      [],
      describeAll(manifest),
    );
  });

  it('adds immutable: false to every entity with one fix-all', async () => {
    const schemaDoc = await vscode.workspace.openTextDocument(schema);
    const written = '@entity(immutable: true)';
    const count = (t: string) => t.split(written).length - 1;
    assert.ok(count(schemaDoc.getText()) >= 2, 'the schema should have two entities by now');
    const strip = new vscode.WorkspaceEdit();
    const t = schemaDoc.getText();
    for (let at = t.indexOf(written); at !== -1; at = t.indexOf(written, at + 1))
      strip.replace(schema, new vscode.Range(schemaDoc.positionAt(at), schemaDoc.positionAt(at + written.length)), '@entity');
    assert.ok(await vscode.workspace.applyEdit(strip));
    const found = await until('an entity-immutable-missing diagnostic per entity', () => {
      const d = ours(schema).filter((x) => x.code === 'entity-immutable-missing');
      return d.length >= 2 ? d : undefined;
    });
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', schema, found[0].range);
    assert.equal(actions.filter((a) => a.title === 'Add immutable: false to every entity').length, 1, JSON.stringify(actions.map((a) => a.title)));
    const fix = await fixFor(schema, found[0], /^Add immutable: false to every entity$/);
    assert.ok(fix.edit && (await vscode.workspace.applyEdit(fix.edit)));
    assert.equal(schemaDoc.getText().split('@entity(immutable: false)').length - 1, found.length);
    await until('no entity-immutable-missing after the fix', () => (ours(schema).some((x) => x.code === 'entity-immutable-missing') ? undefined : true));
    // Back as it was, for the test after this one.
    const restore = new vscode.WorkspaceEdit();
    const after = schemaDoc.getText();
    const fixed = '@entity(immutable: false)';
    for (let at = after.indexOf(fixed); at !== -1; at = after.indexOf(fixed, at + 1))
      restore.replace(schema, new vscode.Range(schemaDoc.positionAt(at), schemaDoc.positionAt(at + fixed.length)), written);
    assert.ok(await vscode.workspace.applyEdit(restore));
  });

  it('forgets the subgraph when its folder is deleted', async () => {
    await replaceInManifest('network: mainnet', 'network: mainet');
    await until('the unknown-network warning', () => ours(manifest).find((d) => d.code === 'unknown-network'));
    for (const d of vscode.workspace.textDocuments) if (d.uri.fsPath.startsWith(folder) && d.isDirty) await d.save();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(folder, { recursive: true, force: true });
    await until('no diagnostics left for the deleted subgraph', () => (ours(manifest).length === 0 ? true : undefined));
  });
});
