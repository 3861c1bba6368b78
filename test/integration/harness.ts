/**
 * Integration harness: starts a real anvil and a real ganache on free loopback ports for the
 * whole suite, hands their URLs to the test files through the environment, and always stops
 * them, whatever the tests do.
 */
import { spawn } from 'node:child_process';
import { startDevnet, type Devnet } from '../support/devnets';

async function main(): Promise<number> {
  const files = process.argv.slice(2);
  const nets: Devnet[] = [];
  const stopAll = () => Promise.all(nets.map((n) => n.stop()));
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => void stopAll().then(() => process.exit(130)));
  }
  try {
    const [anvil, ganache] = await Promise.all([startDevnet('anvil'), startDevnet('ganache')]);
    nets.push(anvil, ganache);
    console.log(`anvil on ${anvil.url} (pid ${anvil.pid}), ganache on ${ganache.url} (pid ${ganache.pid})`);
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files], {
      stdio: 'inherit',
      env: { ...process.env, CHAINDECK_TEST_ANVIL_URL: anvil.url, CHAINDECK_TEST_GANACHE_URL: ganache.url },
    });
    return await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  } finally {
    await stopAll();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`integration harness failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
