/**
 * Runs the extension-host suite in desktop VS Code through @vscode/test-electron, which
 * downloads VS Code from Microsoft (needs internet; offline, use scripts/workbench/run.mjs).
 * Compiled by `node esbuild.js --tests` to out/test/workbench/suite/run-electron.js.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { KEYED_NODE, writeWorkspace } from '../fixture';

const root = path.resolve(__dirname, '..', '..', '..', '..');

async function main(): Promise<number> {
  // The devnet starter is TypeScript outside test/workbench (not compiled): load it via tsx.
  require('tsx/cjs/api').register();
  const { startDevnet } = require(path.join(root, 'test', 'support', 'devnets.ts')) as typeof import('../../support/devnets');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-electron-'));
  const { startProxy } = require(path.join(root, 'test', 'support', 'proxy.ts')) as typeof import('../../support/proxy');
  const anvil = await startDevnet('anvil');
  const keyed = await startProxy({ target: anvil.url, key: KEYED_NODE.secret }).catch(async (err: unknown) => {
    await anvil.stop();
    throw err;
  });
  try {
    const ws = writeWorkspace(path.join(tmp, 'workspace'), anvil.url, keyed.url);
    return await runTests({
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(__dirname, 'index.js'),
      extensionTestsEnv: { CHAINDECK_TEST_ANVIL_URL: anvil.url, CHAINDECK_TEST_WORKSPACE: ws, CHAINDECK_TEST_KEYED_URL: keyed.url },
      launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust', `--user-data-dir=${path.join(tmp, 'user-data')}`],
    });
  } finally {
    await keyed.close();
    await anvil.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
