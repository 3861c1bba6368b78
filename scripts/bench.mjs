// Runs every bench/*.bench.ts with `node --import tsx`, one after the other, against one anvil
// started here (test/support/devnets.ts) and handed over as CHAINDECK_BENCH_ANVIL_URL.
// `node scripts/bench.mjs [name…]` runs only the benches whose file name contains a name.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { require as tsxRequire } from 'tsx/cjs/api';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);
const benches = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts') && (!filters.length || filters.some((n) => f.includes(n))))
  .sort();
if (!benches.length) {
  console.error(`no bench/*.bench.ts matches ${filters.join(', ') || '(all)'}`);
  process.exit(2);
}

// The repo's TypeScript is CommonJS: load the devnet starter through tsx's require hook.
const { startDevnet } = tsxRequire('../test/support/devnets.ts', import.meta.url);
const anvil = await startDevnet('anvil');
const stop = () => anvil.stop();
for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => void stop().then(() => process.exit(130)));

let failed = 0;
try {
  for (const file of benches) {
    console.log(`\n=== ${file} ===`);
    const started = Date.now();
    const code = await new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join('bench', file)], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, CHAINDECK_BENCH_ANVIL_URL: anvil.url },
      });
      child.on('close', (c) => resolve(c ?? 1));
    });
    console.log(`(${file}: ${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code})`);
    if (code !== 0) failed++;
  }
} finally {
  await stop();
}
process.exit(failed ? 1 : 0);
