// Speeds up StrykerJS runs about 1.5× by loading tests as plain JavaScript instead of through tsx.
// `node scripts/mutate-sandbox.cjs` (Stryker's buildCommand, run once in its sandbox copy after
// the mutants are written in) transpiles every .ts file of src/ and test/ to a .js file beside it.
// `node --require scripts/mutate-sandbox.cjs x.test.ts` (each test process) loads a .ts file from
// that sibling, so test files keep their .ts names and the incremental results stay valid.
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

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
}
