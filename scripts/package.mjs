// Builds the production bundle and packages the .vsix: `node scripts/package.mjs [OUT.vsix]`.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { cleanEnv } from './clean-env.mjs';

const root = new URL('..', import.meta.url).pathname;
const out = resolve(process.argv[2] ?? `${root}/out/chaindeck.vsix`);
// Plain `vsce package` (the output path aside): it runs the vscode:prepublish script (the
// production build), then rewrites README's relative links against package.json's repository.
// A clean environment: vsce's own `npm run` would otherwise inherit an outer npm's config.
execFileSync(process.execPath, [`${root}/node_modules/@vscode/vsce/vsce`, 'package', '-o', out], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: cleanEnv({ FORCE_COLOR: '0' }),
});
console.log(out);
