/**
 * The first `npm ci` is quiet: every installed package supports the Node that package.json's
 * engines and README name (no EBADENGINE), and every install script is approved or denied in
 * package.json's allowScripts (npm 11 lists the others, and a later npm skips them).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import semver from 'semver';
import { REPO_ROOT } from '../../support/paths';

const root = REPO_ROOT + '/';
const json = (file: string) => JSON.parse(readFileSync(`${root}${file}`, 'utf8'));
const pkg = json('package.json') as { engines: { node: string }; allowScripts?: Record<string, boolean> };
interface Locked {
  name?: string;
  version?: string;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
  inBundle?: boolean;
}
const locked = Object.entries((json('package-lock.json') as { packages: Record<string, Locked> }).packages)
  .filter(([path]) => path !== '')
  .map(([path, entry]) => ({ ...entry, name: entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length) }));
const oldestNode = semver.minVersion(pkg.engines.node)?.version ?? '';

test("package.json's engines name one oldest Node, and README and the demo name that one", () => {
  assert.match(pkg.engines.node, /^>=\d+\.\d+$/, 'engines.node is ">=MAJOR.MINOR"');
  const named = pkg.engines.node.slice(2);
  const readme = readFileSync(`${root}README.md`, 'utf8');
  assert.deepEqual([...new Set([...readme.matchAll(/\bNode (\d+(?:\.\d+)?) or newer\b/g)].map((m) => m[1]))], [named]);
  assert.match(readFileSync(`${root}scripts/demo.sh`, 'utf8'), new RegExp(`Node\\.js ${named.replace('.', '\\.')} or newer`));
});

test('every package in the lockfile supports the oldest Node the project names (npm ci prints no EBADENGINE)', () => {
  assert.ok(oldestNode, `engines.node ${pkg.engines.node} has a lowest version`);
  const unsupported = locked
    .filter((p) => p.engines && !Array.isArray(p.engines) && p.engines.node && !semver.satisfies(oldestNode, p.engines.node))
    .map((p) => `${p.name}@${p.version} wants node ${(p.engines as { node: string }).node}`);
  assert.deepEqual(unsupported, [], `unsupported on Node ${oldestNode}`);
});

test('every install script in the lockfile is approved or denied in allowScripts, and every entry names one', () => {
  const allow = pkg.allowScripts ?? {};
  const covers = (key: string, p: Locked) => key === p.name || key === `${p.name}@${p.version}`;
  // A bundled package's scripts never run: it arrives inside its parent's tarball, built.
  const withScripts = locked.filter((p) => p.hasInstallScript && !p.inBundle);
  const uncovered = withScripts.filter((p) => !Object.keys(allow).some((key) => covers(key, p))).map((p) => `${p.name}@${p.version}`);
  assert.deepEqual(uncovered, [], 'install scripts npm would list as "not yet covered by allowScripts"');
  const stale = Object.keys(allow).filter((key) => !withScripts.some((p) => covers(key, p)));
  assert.deepEqual(stale, [], 'allowScripts entries that match no package with an install script');
});
