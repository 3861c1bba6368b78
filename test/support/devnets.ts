/**
 * Starts real local nodes from npm on free loopback ports: anvil (Rust, no native
 * debug_storageRangeAt, like Reth) and ganache (native debug_storageRangeAt). Each start waits
 * until the node answers eth_blockNumber; stop() kills the process and waits for it to exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import * as path from 'node:path';

export type DevnetKind = 'anvil' | 'ganache';

export interface Devnet {
  kind: DevnetKind;
  url: string;
  wsUrl: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

const root = path.resolve(__dirname, '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function anvilBinary(): string {
  return path.join(root, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil');
}

function command(kind: DevnetKind, port: number): [string, string[]] {
  if (kind === 'anvil') {
    return [anvilBinary(), ['--host', '127.0.0.1', '--port', String(port), '--silent']];
  }
  const cli = path.join(root, 'node_modules', 'ganache', 'dist', 'node', 'cli.js');
  return [process.execPath, [cli, '--server.host', '127.0.0.1', '--server.port', String(port), '--logging.quiet', '--wallet.deterministic', '--chain.chainId', '1337']];
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await res.json()) as { result?: unknown };
    return typeof body.result === 'string';
  } catch {
    return false;
  }
}

export async function startDevnet(kind: DevnetKind, timeoutMs = 30_000): Promise<Devnet> {
  const port = await freePort();
  const [cmd, args] = command(kind, port);
  const child: ChildProcess = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (!(await answers(url))) {
    if (exited) throw new Error(`${kind} exited before answering: ${stderr.trim()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${kind} did not answer on ${url} within ${timeoutMs} ms: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    kind,
    url,
    wsUrl: `ws://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? -1,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exit;
        clearTimeout(timer);
      }
    },
  };
}

/**
 * The anvil a benchmark runs against: the one `npm run bench` started (CHAINDECK_BENCH_ANVIL_URL),
 * or one of its own when the benchmark runs alone; stop() stops only an anvil started here.
 */
export async function benchAnvil(): Promise<{ url: string; stop(): Promise<void> }> {
  const given = process.env.CHAINDECK_BENCH_ANVIL_URL;
  if (given) return { url: given, stop: async () => {} };
  return startDevnet('anvil');
}
