// Bundles the extension host entry, the CLI, the webview scripts and (with --tests) the
// extension-host test suite. `--production` minifies; `--watch` rebuilds on change.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');
const { version } = require('./package.json');

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  target: 'es2022',
  define: { CHAINDECK_VERSION: JSON.stringify(version) },
};

// Each panel's page is src/webview/<panel>/page.ts, bundled as dist/webview/<panel>.js (and
// <panel>.css when it imports styles): the entry the editor's createPanel names.
function webviewEntries() {
  const dir = path.join(__dirname, 'src', 'webview');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'page.ts')))
    .map((d) => ({ in: path.join('src', 'webview', d.name, 'page.ts'), out: d.name }));
}

function workbenchTestEntries() {
  const dir = path.join(__dirname, 'test', 'workbench');
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join('test', 'workbench', f));
}

// Loopback servers that extension-host tests start in-process, compiled beside them (out/test/support).
const workbenchSupport = ['test/support/platformServer.ts', 'test/support/proxy.ts', 'test/support/until.ts', 'test/support/processes.ts', 'test/support/subgraphTests.ts'];
// Helpers that drive core (the local graph-node, contracts on a chain): bundled with the core they
// import, since out/test has no compiled src; solc and ethers load from node_modules at run time.
const workbenchBundledSupport = [
  'test/support/localGraph.ts',
  'test/support/contracts.ts',
  'test/support/emitter.ts',
  'test/support/approvals.ts',
  'test/support/solidity.ts',
  'test/support/demoChain.ts',
];

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', banner: { js: '#!/usr/bin/env node' } },
];
const webviews = webviewEntries();
if (webviews.length) {
  builds.push({ ...common, entryPoints: webviews, outdir: 'dist/webview', platform: 'browser', format: 'iife' });
}
if (tests) {
  // Extension-host tests stay unbundled per file so mocha can load them one by one; `vscode`
  // and mocha are resolved at run time inside the real extension host.
  builds.push({
    ...common,
    minify: false,
    sourcemap: 'inline',
    bundle: false,
    entryPoints: [...workbenchTestEntries(), ...workbenchSupport],
    outdir: 'out/test',
    outbase: 'test',
    platform: 'node',
    format: 'cjs',
  });
  builds.push({
    ...common,
    minify: false,
    sourcemap: 'inline',
    entryPoints: workbenchBundledSupport,
    outdir: 'out/test/support',
    platform: 'node',
    format: 'cjs',
    external: ['vscode', 'solc', 'ethers'],
  });
}

async function main() {
  // A production build starts from an empty dist/, so no stale file (a dev build's source maps)
  // can slip into the package.
  if (production) fs.rmSync(path.join(__dirname, 'dist'), { recursive: true, force: true });
  if (watch) {
    for (const b of builds) {
      const ctx = await esbuild.context(b);
      await ctx.watch();
    }
    console.log('[watch] building; press Ctrl+C to stop');
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
