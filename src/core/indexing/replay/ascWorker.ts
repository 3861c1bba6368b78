/**
 * A warm AssemblyScript compiler for the replays of one project: a Node process that loaded the
 * project's own `assemblyscript/cli/asc` once and compiles on request. Loading the compiler and
 * warming its JIT is most of a small mapping's compile (measured: 7.7 s cold, 2–3 s warm, under
 * load), and a replay compiles on every save. One request at a time, JSON lines on its pipes;
 * asc's output kept in memory and returned; a worker that dies is started again on the next use.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CompileError } from './compile';

// Runs in the worker (CommonJS, node -e): asc resolved from the project's folder (its working directory).
const WORKER_SOURCE = `
let asc;
try {
  asc = require(require.resolve('assemblyscript/cli/asc', { paths: [process.cwd()] }));
} catch (e) {
  process.stderr.write("assemblyscript/cli/asc cannot be loaded from the subgraph's folder (" + String((e && e.message) || e).split('\\n')[0] + '): install its dependencies\\n');
  process.exit(1);
}
const lines = require('node:readline').createInterface({ input: process.stdin });
asc.ready.then(() => lines.on('line', (line) => {
  const { id, args } = JSON.parse(line);
  const out = asc.createMemoryStream();
  let done = false;
  const finish = (err) => {
    if (done) return;
    done = true;
    process.stdout.write(JSON.stringify({ id, ok: !err, output: out.toString() + (err ? '\\n' + err : '') }) + '\\n');
  };
  try {
    asc.main(args, { stdout: out, stderr: out }, (err) => { finish(err ? String((err && err.message) || err) : undefined); return 0; });
  } catch (e) { finish(String((e && e.message) || e)); }
}));
`;

const COMPILE_TIMEOUT_MS = 120_000;

export class AscWorker {
  private child?: ChildProcess;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  private queue: Promise<unknown> = Promise.resolve();

  /** `node`: the Node.js binary to run the compiler with (an editor host may not be Node itself). */
  constructor(
    private readonly projectDir: string,
    private readonly node = process.execPath,
  ) {}

  private start(): ChildProcess {
    if (this.child && this.child.exitCode === null && !this.child.killed) return this.child;
    const child = spawn(this.node, ['-e', WORKER_SOURCE], { cwd: this.projectDir, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let reply: { id: number; ok: boolean; output: string };
      try {
        reply = JSON.parse(line) as typeof reply;
      } catch {
        return;
      }
      const w = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.ok) w?.resolve();
      else w?.reject(new CompileError(reply.output));
    });
    const fail = (why: string) => {
      // The worker's last line says why (its own, for a missing compiler; else Node's error).
      const last = stderr
        .trim()
        .split('\n')
        .filter((l) => l.trim() && !/^\s*(at |Node\.js v|\^|})/.test(l))
        .pop();
      for (const w of this.waiting.values()) w.reject(new Error(`The AssemblyScript compiler ${why}${last ? `: ${last.trim()}` : ''}`));
      this.waiting.clear();
    };
    child.on('error', (err) => fail(`could not be started (${err.message})`));
    child.on('exit', (code, signal) => fail(`ended (${signal ?? `status ${code}`})`));
    this.child = child;
    return child;
  }

  /** Compiles with asc's command-line arguments (relative to the project's folder); rejects with CompileError on compiler errors. */
  compile(args: readonly string[], signal?: AbortSignal): Promise<void> {
    const run = this.queue.then(
      () =>
        new Promise<void>((resolve, reject) => {
          signal?.throwIfAborted();
          const child = this.start();
          const id = this.nextId++;
          const timer = setTimeout(() => {
            this.close();
            reject(new Error(`The AssemblyScript compiler took longer than ${COMPILE_TIMEOUT_MS / 1000} s.`));
          }, COMPILE_TIMEOUT_MS);
          const onAbort = () => {
            this.close();
            reject(signal!.reason instanceof Error ? signal!.reason : new Error('cancelled'));
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          const settle = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
          };
          this.waiting.set(id, {
            resolve: () => (settle(), resolve()),
            reject: (err) => (settle(), reject(err)),
          });
          child.stdin!.write(`${JSON.stringify({ id, args })}\n`);
        }),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the worker (the next compile starts another). */
  close(): void {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null) child.kill();
  }
}
