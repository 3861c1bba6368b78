/** A copy of the test runner (scripts/test.mjs) in a temporary project, for the tests of the runner itself. */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/**
 * A temporary project with scripts/test.mjs: its scripts/setup.sh records its environment in
 * setup-ran.json and fails; test/unit holds `unitTests` (file name → source; by default one
 * passing test). `withModules` links the real node_modules. The caller removes the folder.
 */
export function runnerProject(withModules: boolean, unitTests: Record<string, string> = { 'one.test.ts': "import { test } from 'node:test';\ntest('one', () => {});\n" }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'chaindeck-runner-'));
  mkdirSync(path.join(dir, 'scripts'));
  mkdirSync(path.join(dir, 'test', 'unit'), { recursive: true });
  for (const f of ['test.mjs', 'clean-env.mjs']) copyFileSync(path.join(root, 'scripts', f), path.join(dir, 'scripts', f));
  copyFileSync(path.join(root, 'package-lock.json'), path.join(dir, 'package-lock.json'));
  const setup = path.join(dir, 'scripts', 'setup.sh');
  writeFileSync(setup, `#!/usr/bin/env bash\nnode -e 'process.stdout.write(JSON.stringify(process.env))' > "$(dirname "$0")/../setup-ran.json"\nexit 1\n`);
  chmodSync(setup, 0o755);
  for (const [name, source] of Object.entries(unitTests)) writeFileSync(path.join(dir, 'test', 'unit', name), source);
  if (withModules) symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}
