// Builds the production bundle and packages the .vsix: `node scripts/package.mjs [OUT.vsix]`.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = resolve(process.argv[2] ?? `${root}/out/chaindeck.vsix`);
// vsce runs the vscode:prepublish script (the production build) before it packs. Without a
// repository URL it would refuse README's relative links, so they are kept as written.
execFileSync(process.execPath, [`${root}/node_modules/@vscode/vsce/vsce`, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', out], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, FORCE_COLOR: '0' },
});
console.log(out);
