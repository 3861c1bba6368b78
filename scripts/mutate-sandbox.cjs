// Speeds up StrykerJS runs about 1.5× by loading tests as plain JavaScript instead of through tsx.
// `node scripts/mutate-sandbox.cjs` (Stryker's buildCommand, run once in its sandbox copy after
// the mutants are written in) transpiles every .ts file of src/ and test/ to a .js file beside it.
// `node --require scripts/mutate-sandbox.cjs x.test.ts` (each test process) loads a .ts file from
// that sibling, so test files keep their .ts names and the incremental results stay valid.
const { existsSync, readFileSync, readdirSync } = require('node:fs');
const { dirname, join } = require('node:path');

if (require.main === module) {
  const esbuild = require('esbuild');
  const root = join(__dirname, '..');
  const entryPoints = ['src', 'test']
    .flatMap((dir) => readdirSync(join(root, dir), { recursive: true }).map((f) => join(root, dir, f)))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  // Dynamic import() becomes require(), so extensionless paths resolve to the .js siblings.
  esbuild.buildSync({
    entryPoints,
    outdir: root,
    outbase: root,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    supported: { 'dynamic-import': false },
    logLevel: 'warning',
  });
} else {
  require.extensions['.ts'] = (module, filename) => {
    module._compile(readFileSync(filename.replace(/\.ts$/, '.js'), 'utf8'), filename);
  };
  // The import() of an ES-module package became require(), which takes the package's
  // "module-sync" target; blockstore-fs names one it does not ship (src/index.js), so the IPFS
  // endpoint, and every test that starts a local graph-node, failed here. Such a package is
  // resolved by its "import" target instead, as import() resolves it under tsx.
  const Module = require('node:module');
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    try {
      return resolveFilename.call(this, request, parent, ...rest);
    } catch (err) {
      const name = /^((?:@[^/]+\/)?[^./@][^/]*)(\/.*)?$/.exec(request);
      if (err.code !== 'MODULE_NOT_FOUND' || !name || !parent?.filename) throw err;
      for (const dir of Module._nodeModulePaths(dirname(parent.filename))) {
        const manifest = join(dir, name[1], 'package.json');
        if (!existsSync(manifest)) continue;
        const target = JSON.parse(readFileSync(manifest, 'utf8')).exports?.[`.${name[2] ?? ''}`]?.import;
        if (typeof target === 'string' && existsSync(join(dir, name[1], target))) return join(dir, name[1], target);
        break;
      }
      throw err;
    }
  };
}
