/**
 * Runs the extension-host suite in desktop VS Code through @vscode/test-electron, which
 * downloads VS Code from Microsoft (needs internet; offline, use scripts/workbench/run.mjs).
 * Compiled by `node esbuild.js --tests` to out/test/workbench/suite/run-electron.js.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { writeWorkspace } from '../fixture';

const root = path.resolve(__dirname, '..', '..', '..', '..');

async function main(): Promise<number> {
  // The devnet starter is TypeScript outside test/workbench (not compiled): load it via tsx.
  require('tsx/cjs/api').register();
  const { startDevnet } = require(path.join(root, 'test', 'support', 'devnets.ts')) as typeof import('../../support/devnets');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-electron-'));
  const anvil = await startDevnet('anvil');
  try {
    const ws = writeWorkspace(path.join(tmp, 'workspace'), anvil.url);
    return await runTests({
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(__dirname, 'index.js'),
      extensionTestsEnv: { CHAINDECK_TEST_ANVIL_URL: anvil.url, CHAINDECK_TEST_WORKSPACE: ws },
      launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust', `--user-data-dir=${path.join(tmp, 'user-data')}`],
    });
  } finally {
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
