import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';

function listZip(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

test('the .vsix holds the run-time files only and stays under 2 MB', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chaindeck-vsix-'));
  try {
    const vsix = join(dir, 'chaindeck.vsix');
    execFileSync(process.execPath, ['scripts/package.mjs', vsix], { stdio: 'pipe' });
    const size = statSync(vsix).size;
    console.log(`vsix size: ${(size / 1024).toFixed(1)} KiB`);
    assert.ok(size < 2 * 1024 * 1024, `vsix is ${size} bytes`);

    const files = (await listZip(vsix)).filter((f) => f.startsWith('extension/')).map((f) => f.slice('extension/'.length));
    for (const needed of ['package.json', 'dist/extension.js', 'dist/cli.js', 'media/chaindeck.svg']) {
      assert.ok(files.includes(needed), `missing ${needed}`);
    }
    const allowed = /^(package\.json|readme\.md|changelog\.md|LICENSE\.txt|dist\/(extension|cli)\.js|dist\/webview\/[\w.-]+\.(js|css)|syntaxes\/[\w.-]+\.json|media\/[\w.-]+\.(svg|css|png)|language-configuration[\w.-]*\.json)$/;
    const unexpected = files.filter((f) => !allowed.test(f));
    assert.deepEqual(unexpected, [], 'files that the extension does not need at run time');
    assert.ok(!files.some((f) => /^(src|test|bench|scripts|node_modules|out|\.demo|test-results)\//.test(f)));
    assert.ok(!files.some((f) => f.endsWith('.map')), 'no source maps');
    assert.ok(!files.includes('media/screenshot.png'), 'README screenshot is not shipped');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
