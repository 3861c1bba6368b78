/**
 * The editor reads the files a manifest names through the core's safe reader: a schema that is
 * a named pipe and an ABI linked to /dev/zero get their own diagnostics at once, and the
 * extension host keeps answering (a blocking read would freeze every later test).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateTestApi, until } from './helpers';

const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'chaindeck');
const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);

describe('hostile files named by a manifest', () => {
  let folder: string;

  before(async () => {
    const { ext } = await activateTestApi('activate() returned no test API');
    const workspace = process.env.CHAINDECK_TEST_WORKSPACE ?? vscode.workspace.workspaceFolders![0].uri.fsPath;
    folder = path.join(workspace, `hostile-files-${process.pid}-${Date.now()}`);
    fs.cpSync(path.join(ext.extensionPath, 'test', 'fixtures', 'subgraphs', 'tutorial'), folder, { recursive: true });
    fs.rmSync(path.join(folder, 'schema.graphql'));
    execFileSync('mkfifo', [path.join(folder, 'schema.graphql')]);
    fs.rmSync(path.join(folder, 'abis', 'ERC20.json'));
    fs.symlinkSync('/dev/zero', path.join(folder, 'abis', 'ERC20.json'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('flags a FIFO schema and a /dev/zero ABI at their paths, and keeps validating edits', async () => {
    const manifest = vscode.Uri.file(path.join(folder, 'subgraph.yaml'));
    const document = await vscode.workspace.openTextDocument(manifest);
    await vscode.window.showTextDocument(document);
    const found = await until('diagnostics for both files', () => {
      const d = ours(manifest).filter((x) => codeOf(x) === 'file-not-regular');
      return d.length === 2 ? d : undefined;
    });
    const byLine = found.sort((a, b) => a.range.start.line - b.range.start.line);
    assert.equal(byLine[0].message, 'File cannot be read: ./schema.graphql is a named pipe (FIFO): only regular files are read');
    assert.equal(byLine[0].range.start.line, 3);
    assert.equal(byLine[1].message, 'File cannot be read: ./abis/ERC20.json is a device: only regular files are read');
    assert.equal(byLine[0].severity, vscode.DiagnosticSeverity.Error);

    // The host still answers: an unsaved edit is validated as usual.
    const at = document.getText().indexOf('startBlock');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(manifest, new vscode.Range(document.positionAt(at), document.positionAt(at + 'startBlock'.length)), 'startblock');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await until('the edit validated', () => ours(manifest).find((d) => /startblock/.test(d.message)));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
