import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { anvil as rpc, EXTENSION_ID as ID } from './helpers';

describe('activation', () => {
  it('is installed, activates and registers every declared command', async () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext, `${ID} is not installed in the extension host`);
    await ext.activate();
    assert.equal(ext.isActive, true);

    // Read from the manifest so the test grows with the command list.
    const declared: string[] = (ext.packageJSON.contributes?.commands ?? []).map((c: { command: string }) => c.command);
    assert.ok(declared.length > 0, 'package.json declares no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      declared.filter((c) => !registered.has(c)),
      [],
      'declared but not registered',
    );
  });

  it('runs chaindeck.showLog', async () => {
    await vscode.commands.executeCommand('chaindeck.showLog');
  });

  it("sees the runner's workspace and devnet", async function () {
    // The runner passes these through the server's environment; the electron runner through
    // extensionTestsEnv. Both reach process.env of the extension host.
    const ws = process.env.CHAINDECK_TEST_WORKSPACE;
    const anvil = process.env.CHAINDECK_TEST_ANVIL_URL;
    assert.ok(ws, 'CHAINDECK_TEST_WORKSPACE not set in the extension host');
    assert.ok(anvil, 'CHAINDECK_TEST_ANVIL_URL not set in the extension host');

    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.equal(folder && path.resolve(folder.uri.fsPath), path.resolve(ws));
    const nodes = vscode.workspace.getConfiguration('chaindeck').get<{ url: string }[]>('nodes');
    assert.equal(nodes?.[0]?.url, anvil);

    const blockNumber = (await rpc('eth_blockNumber', [])) as string | undefined;
    assert.match(blockNumber ?? '', /^0x[0-9a-f]+$/);
  });
});
