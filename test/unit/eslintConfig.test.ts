// The lint's cycle rule (eslint.config.mjs): an import cycle fails it, type-only imports included,
// which import-x/no-cycle lets through. Linted in a scratch project with this config and packages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.join(__dirname, '..', '..');

/** Lints `files` (path → text under src/) in a scratch project; the rule ids reported, per file. */
async function lint(files: Record<string, string>): Promise<Record<string, string[]>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'chaindeck-lint-'));
  try {
    copyFileSync(path.join(ROOT, 'eslint.config.mjs'), path.join(dir, 'eslint.config.mjs'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const results = await new ESLint({ cwd: dir }).lintFiles(['src']);
    return Object.fromEntries(results.map((r) => [path.relative(dir, r.filePath), r.messages.map((m) => m.ruleId ?? m.message)]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// One scratch project for all cases: typescript-eslint keeps one project root per process.
const linted = lint({
  'src/core/types/a.ts': "import type { B } from './b';\nexport interface A {\n  b?: B;\n}\n",
  'src/core/types/b.ts': "import type { A } from './a';\nexport interface B {\n  a?: A;\n}\n",
  'src/core/values/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
  'src/core/values/b.ts': "export { c as b } from './c';\n",
  'src/core/values/c.ts': "export const c = async () => (await import('./a')).a;\n",
  'src/core/oneWay/d.ts': "import type { A } from './e';\nexport const d = (x: A) => x;\n",
  'src/core/oneWay/e.ts': 'export type A = string;\n',
});

/** The rules reported on the files under `folder`. */
async function found(folder: string): Promise<Record<string, string[]>> {
  return Object.fromEntries(Object.entries(await linted).filter(([file]) => file.startsWith(`src/core/${folder}/`)));
}

test('a cycle of type-only imports fails the lint, on both files', async () => {
  assert.deepEqual(await found('types'), { 'src/core/types/a.ts': ['chaindeck/no-import-cycle'], 'src/core/types/b.ts': ['chaindeck/no-import-cycle'] });
});

test('a cycle through a re-export and a dynamic import fails it too', async () => {
  assert.deepEqual(await found('values'), {
    'src/core/values/a.ts': ['chaindeck/no-import-cycle'],
    'src/core/values/b.ts': ['chaindeck/no-import-cycle'],
    'src/core/values/c.ts': ['chaindeck/no-import-cycle'],
  });
});

test('imports one way pass', async () => {
  assert.deepEqual(await found('oneWay'), { 'src/core/oneWay/d.ts': [], 'src/core/oneWay/e.ts': [] });
});
