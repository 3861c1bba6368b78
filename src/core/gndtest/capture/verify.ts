/**
 * The check a capture ends with: the written test run once by `gnd test` on the unchanged,
 * built subgraph, against a private Postgres (made in `scratch`, stopped after). A captured test
 * that does not pass there would only mislead: the caller writes nothing and shows why (the first
 * failed assertion and the first line that differs, or the handler's error).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { findPostgres, MISSING_POSTGRES, PostgresError, startPostgres } from '../../localnode/postgres';

/** How long the run may take before it is stopped. */
export const VERIFY_TIMEOUT_MS = 180_000;
const MAX_OUTPUT = 4 * 1024 * 1024;

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Why gnd's output says the test failed, in one line: the handler's error, or the first failed assertion and its first differing lines. */
export function failureSummary(output: string): string {
  const lines = output.replace(ANSI, '').split('\n');
  const handler = lines.find((l) => /^\s*Handler error:/.test(l));
  if (handler) return handler.trim();
  const start = lines.findIndex((l) => /^\s*Query:/.test(l));
  if (start < 0)
    return (
      lines
        .filter((l) => l.trim())
        .slice(-3)
        .join(' ')
        .slice(0, 500) || '(no output)'
    );
  const query = lines[start].trim();
  const diff = lines.slice(start + 1).filter((l) => /^\s+[-+] /.test(l));
  // A changed line shows as - then +: the field with its expected and actual values.
  const line = (mark: string) =>
    diff
      .find((l) => l.trim().startsWith(mark))
      ?.trim()
      .slice(1)
      .trim()
      .replace(/,$/, '');
  const expected = line('-');
  const actual = line('+');
  return `${query}; ${[expected && `expected ${expected}`, actual && `got ${actual}`].filter(Boolean).join(', ') || 'the answer differs'}`;
}

/** Runs `gnd test --skip-build` on one file; resolves undefined when it passes, else the reason in one line. */
export async function verifyCapturedTest(options: { gnd: string; manifest: string; file: string; scratch: string; signal?: AbortSignal }): Promise<string | undefined> {
  const bins = findPostgres();
  if (!bins) throw new PostgresError(MISSING_POSTGRES);
  const postgres = await startPostgres(bins, path.join(options.scratch, 'verify-pg'), await freePort());
  try {
    return await new Promise<string | undefined>((resolve, reject) => {
      // The Postgres URL (a password) goes by the environment, not the command line.
      const child = spawn(options.gnd, ['test', '--skip-build', '--manifest', options.manifest, options.file], {
        cwd: path.dirname(options.manifest),
        env: { ...process.env, POSTGRES_URL: postgres.url, NO_COLOR: '1', CLICOLOR: '0', GRAPH_LOG: 'error' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const collect = (d: Buffer) => {
        if (output.length < MAX_OUTPUT) output += d.toString('utf8');
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      const stop = () => child.kill('SIGKILL');
      const timer = setTimeout(stop, VERIFY_TIMEOUT_MS);
      options.signal?.addEventListener('abort', stop, { once: true });
      child.once('error', (err) => reject(new Error(`gnd could not be started (${options.gnd}): ${err.message}`)));
      child.once('close', (code) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', stop);
        if (options.signal?.aborted) reject(new Error('The capture was cancelled.'));
        else if (code === 0) resolve(undefined);
        else if (code === null) resolve(`gnd test did not end within ${VERIFY_TIMEOUT_MS / 1000} s`);
        else resolve(failureSummary(output));
      });
    });
  } finally {
    await postgres.stop().catch(() => undefined);
  }
}
