import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { cleanEnv } from '../../scripts/clean-env.mjs';

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The names of a zip's entries, and the text of those `keep` asks for. */
function readZip(file: string, keep: (name: string) => boolean = () => false): Promise<{ names: string[]; texts: Map<string, Buffer> }> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      const texts = new Map<string, Buffer>();
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        if (!keep(e.fileName)) return zip.readEntry();
        zip.openReadStream(e, (err2, stream) => {
          if (err2 || !stream) return reject(err2);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            texts.set(e.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve({ names, texts }));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Width and height from a PNG's IHDR chunk; throws if the bytes are not a PNG. */
function pngSize(png: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(png.subarray(0, 8).equals(signature), 'not a PNG (signature)');
  assert.equal(png.toString('latin1', 12, 16), 'IHDR', 'first chunk is not IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

interface WalkthroughStep {
  id: string;
  title: string;
  media: { markdown?: string; image?: string };
  completionEvents?: string[];
}
const walkthroughs = (manifest.contributes?.walkthroughs ?? []) as { id: string; title: string; steps: WalkthroughStep[] }[];
const stepMedia = (step: WalkthroughStep) => step.media.markdown ?? step.media.image ?? '';

test('the manifest has what the Marketplace shows: repository, bugs, homepage and a 128×128 PNG icon', () => {
  assert.match(manifest.repository?.url ?? '', /^https:\/\/github\.com\/chaindeck\/chaindeck(\.git)?$/);
  assert.match(manifest.bugs?.url ?? '', /^https:\/\/github\.com\/chaindeck\/chaindeck\/issues$/);
  assert.match(manifest.homepage ?? '', /^https:\/\//);
  assert.match(manifest.icon ?? '', /\.png$/, 'the Marketplace icon must be a PNG');
  assert.deepEqual(pngSize(readFileSync(join(root, manifest.icon))), { width: 128, height: 128 });
});

test('the Getting Started walkthrough: add a node, send a call, browse storage, open a subgraph', () => {
  assert.equal(walkthroughs.length, 1, 'one walkthrough');
  const steps = walkthroughs[0].steps;
  assert.deepEqual(
    steps.map((s) => s.title),
    ['Add a node', 'Send a call', 'Browse storage', 'Open a subgraph'],
  );
  const commands = new Set((manifest.contributes.commands as { command: string }[]).map((c) => c.command));
  for (const step of steps) {
    assert.match(stepMedia(step), /^media\/walkthrough\/[\w.-]+\.(md|png)$/, `${step.id}: media under media/walkthrough/`);
    assert.ok(existsSync(join(root, stepMedia(step))), `${step.id}: ${stepMedia(step)} is missing`);
    assert.ok(step.completionEvents?.length, `${step.id}: no completion event`);
    for (const event of step.completionEvents ?? []) {
      const command = /^onCommand:(.+)$/.exec(event)?.[1];
      if (command) assert.ok(commands.has(command), `${step.id}: ${event} names no declared command`);
    }
  }
  assert.ok(steps[0].completionEvents?.includes('onCommand:chaindeck.nodes.add'));
});

test('plain `vsce package` (no flags) packs the run-time files only, under 2 MB, ready for the Marketplace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chaindeck-vsix-'));
  // Plain `vsce package` writes NAME-VERSION.vsix into the project: one already there is kept aside.
  const produced = join(root, `${manifest.name}-${manifest.version}.vsix`);
  const aside = join(dir, 'kept-aside.vsix');
  if (existsSync(produced)) renameSync(produced, aside);
  try {
    const vsix = join(dir, 'chaindeck.vsix');
    // No terminal to answer vsce's questions (a missing repository or license): it must not ask.
    execFileSync(process.execPath, [join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package'], { cwd: root, stdio: 'pipe', env: cleanEnv() });
    renameSync(produced, vsix);
    const size = statSync(vsix).size;
    console.log(`vsix size: ${(size / 1024).toFixed(1)} KiB`);
    assert.ok(size < 2 * 1024 * 1024, `vsix is ${size} bytes`);

    const { names, texts } = await readZip(vsix, (f) => f === 'extension/readme.md');
    const files = names.filter((f) => f.startsWith('extension/')).map((f) => f.slice('extension/'.length));
    const walkthroughMedia = walkthroughs.flatMap((w) => w.steps.map(stepMedia));
    for (const needed of ['package.json', 'dist/extension.js', 'dist/cli.js', 'media/chaindeck.svg', manifest.icon, ...walkthroughMedia]) {
      assert.ok(files.includes(needed), `missing ${needed}`);
    }
    const allowed =
      /^(package\.json|readme\.md|changelog\.md|LICENSE\.txt|dist\/(extension|cli)\.js|dist\/webview\/[\w.-]+\.(js|css)|syntaxes\/[\w.-]+\.json|media\/[\w.-]+\.(svg|css|png)|media\/walkthrough\/[\w.-]+\.(md|png)|language-configuration[\w.-]*\.json)$/;
    const unexpected = files.filter((f) => !allowed.test(f));
    assert.deepEqual(unexpected, [], 'files that the extension does not need at run time');
    assert.ok(!files.some((f) => /^(src|test|bench|scripts|node_modules|out|\.demo|test-results)\//.test(f)));
    assert.ok(!files.some((f) => f.endsWith('.map')), 'no source maps');
    assert.ok(!files.includes('media/screenshot.png'), 'README screenshot is not shipped');

    // The Marketplace shows the packed README: its images must be absolute https links (vsce
    // rewrites relative ones against the repository) and not SVG, which it refuses.
    const readme = texts.get('extension/readme.md')?.toString('utf8') ?? '';
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map((m) => m[1]);
    assert.ok(images.length > 0, 'README shows no image');
    for (const src of images) {
      assert.match(src, /^https:\/\/github\.com\/chaindeck\/chaindeck\/raw\/HEAD\//, `image ${src} will not render on the Marketplace`);
      assert.doesNotMatch(src, /\.svg$/i);
    }
  } finally {
    rmSync(produced, { force: true });
    if (existsSync(aside)) renameSync(aside, produced);
    rmSync(dir, { recursive: true, force: true });
  }
});
