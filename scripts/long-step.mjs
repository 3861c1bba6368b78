// A long install step that never leaves the screen silent: it says what it does and about how
// long that takes before it starts, every 30 s that it is still at it (naming the package whose
// install script npm runs, when there is one), and how long it took. With a log file, the
// command's output (compiler chatter) goes there and only its last lines are shown, on failure.
// Plain text: no terminal escapes, so a CI log reads the same. The command stays in our process
// group, so Ctrl+C or a runner stopping the group stops it too.
//
//   import { longStep } from './long-step.mjs'
//   node scripts/long-step.mjs --tag setup --what "…" --about "2 minutes" [--log FILE] -- CMD ARG…
// CHAINDECK_STEP_HEARTBEAT_MS sets the 30 s between the "still at it" lines (for tests).
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const HEARTBEAT_MS = Number(process.env.CHAINDECK_STEP_HEARTBEAT_MS) || 30_000;
const TAIL_LINES = 30;

/** The last `bytes` of a file as text (the whole file when it is smaller). */
function tailOf(file, bytes = 64 * 1024) {
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (!size) return '';
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, bytes));
    readSync(fd, buf, 0, buf.length, size - buf.length);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The package whose install script npm (--foreground-scripts) started last: `> name@1.2.3 install`. */
export function currentScript(text) {
  const banners = [...text.matchAll(/^> (\S+)@\S+ (?:preinstall|install|postinstall)$/gm)];
  return banners.at(-1)?.[1];
}

/**
 * Runs `cmd args` as one announced step; resolves when it exits 0, rejects (after showing the
 * log's last lines) otherwise or after `timeoutMs`, when it is stopped (SIGTERM, then SIGKILL).
 */
export function longStep({ tag, what, about, log, cmd, args = [], cwd, env, timeoutMs = 30 * 60_000 }) {
  const say = (msg) => console.log(`[${tag}] ${msg}`);
  say(`${what} (about ${about}${log ? `; output in ${log}` : ''})`);
  let out = 'inherit';
  if (log) {
    mkdirSync(dirname(log), { recursive: true });
    out = openSync(log, 'w');
  }
  const t0 = Date.now();
  const secs = () => `${Math.round((Date.now() - t0) / 1000)} s`;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', out, out] });
    if (typeof out === 'number') closeSync(out);
    const heartbeat = setInterval(() => {
      const script = log && currentScript(tailOf(log));
      say(`  … still ${what}: ${secs()}${script ? `, now ${script}'s install script` : ''}`);
    }, HEARTBEAT_MS);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }, timeoutMs);
    const finish = (err) => {
      clearInterval(heartbeat);
      clearTimeout(timer);
      if (!err) {
        say(`${what}: done in ${secs()}`);
        return resolve();
      }
      if (log) {
        const lines = tailOf(log).trimEnd().split('\n').slice(-TAIL_LINES);
        console.error(`[${tag}] the last lines of ${log}:\n${lines.map((l) => `  ${l}`).join('\n')}`);
      }
      console.error(`[${tag}] ${what} failed after ${secs()}: ${err}${log ? ` (whole output: ${log})` : ''}`);
      reject(new Error(`${what} failed: ${err}`));
    };
    child.on('error', (e) => finish(e.message));
    child.on('exit', (code, signal) => {
      if (timedOut) finish(`timed out after ${timeoutMs / 1000} s`);
      else finish(code === 0 ? null : `${cmd} exited with ${signal ?? `code ${code}`}`);
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { tag: { type: 'string', default: 'setup' }, what: { type: 'string' }, about: { type: 'string' }, log: { type: 'string' } },
    });
  } catch (err) {
    parsed = { values: {}, positionals: [], error: err.message };
  }
  const { values: v, positionals: command } = parsed;
  if (parsed.error || !v.what || !v.about || !command.length) {
    console.error(`${parsed.error ? `${parsed.error}\n` : ''}usage: node scripts/long-step.mjs [--tag T] --what TEXT --about DURATION [--log FILE] -- CMD [ARG…]`);
    process.exit(2);
  }
  longStep({ tag: v.tag, what: v.what, about: v.about, log: v.log, cmd: command[0], args: command.slice(1) }).then(
    () => process.exit(0),
    () => process.exit(1),
  );
}
