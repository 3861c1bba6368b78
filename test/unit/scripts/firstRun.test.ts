/**
 * The first run on a fresh machine: scripts/setup.sh as a user who is not root (with and without
 * sudo), and the long steps that say what they do instead of leaving the screen silent. setup.sh
 * runs for real with a PATH of stubs: `id` says uid 1000, `dpkg` knows no package, and sudo,
 * apt-get and npm record how they were called (npm then fails, so nothing is ever installed).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../../support/paths';

const root = REPO_ROOT;
const ESC = '\x1b';

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: root, env, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** A folder to be the whole PATH: the few real programs setup.sh needs, and the stubs. */
function stubPath(withSudo: boolean): { bin: string; calls: (name: string) => string } {
  const bin = mkdtempSync(path.join(tmpdir(), 'chaindeck-setup-path-'));
  for (const real of ['bash', 'env', 'dirname', 'mktemp']) symlinkSync(`/usr/bin/${real}`, path.join(bin, real));
  symlinkSync(process.execPath, path.join(bin, 'node'));
  const stub = (name: string, body: string) => {
    writeFileSync(path.join(bin, name), `#!/bin/bash\necho "$*" >> "${bin}/${name}.calls"\n${body}\n`);
    chmodSync(path.join(bin, name), 0o755);
  };
  stub('id', '[ "$1" = -u ] && echo 1000 || echo "uid=1000(dev)"');
  stub('dpkg', 'exit 1');
  stub('apt-get', 'echo "apt-get noise"; exit 100');
  stub('npm', 'exit 1');
  if (withSudo) stub('sudo', '[ "$1" = -v ] && exit 0; exec "$@"');
  const calls = (name: string) => (existsSync(path.join(bin, `${name}.calls`)) ? readFileSync(path.join(bin, `${name}.calls`), 'utf8') : '');
  return { bin, calls };
}

const setupEnv = (bin: string): NodeJS.ProcessEnv => ({ PATH: bin, HOME: tmpdir(), TMPDIR: tmpdir(), XDG_CACHE_HOME: path.join(bin, 'cache') });

test('setup.sh as a user who is not root, without sudo: the exact apt-get command to run as root, exit 1, nothing run', async () => {
  const { bin, calls } = stubPath(false);
  try {
    const res = await run(path.join(bin, 'bash'), ['scripts/setup.sh'], setupEnv(bin));
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(
      res.stderr,
      /installing them needs root \(there is no sudo\)\. As root, run\n {2}apt-get update && apt-get install -y chromium libkrb5-dev postgresql\nthen run this again\./,
    );
    assert.equal(calls('apt-get'), '', 'apt-get was run as a user who is not root');
    assert.equal(calls('npm'), '', 'setup went on without the Debian packages');
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});

test('setup.sh as a user with sudo says what it installs before asking, installs through sudo, and names its log; --no-browser leaves out Chromium', async () => {
  const { bin, calls } = stubPath(true);
  try {
    const res = await run(path.join(bin, 'bash'), ['scripts/setup.sh', '--no-browser'], setupEnv(bin));
    const out = res.stdout + res.stderr;
    // The stub apt-get fails: setup stops there, with the command to run by hand.
    assert.equal(res.code, 1, out);
    assert.match(res.stdout, /^setup: the Debian packages libkrb5-dev postgresql are missing; installing them with sudo \(apt-get update, apt-get install\)$/m);
    assert.match(calls('sudo'), /^-v\nenv DEBIAN_FRONTEND=noninteractive bash -c apt-get update -q && apt-get install -y -q libkrb5-dev postgresql\n$/);
    assert.equal(calls('apt-get'), 'update -q\n', 'apt-get ran (through sudo)');
    const log = /output in (\S+apt-get\.log)\)/.exec(res.stdout)?.[1];
    assert.ok(log, `the log file is named: ${res.stdout}`);
    assert.equal(readFileSync(log, 'utf8'), 'apt-get noise\n');
    assert.match(res.stderr, /^ {2}apt-get noise$/m, "the log's last lines are shown on failure");
    assert.match(res.stderr, /^ {2}apt-get update && apt-get install -y libkrb5-dev postgresql$/m);
    assert.ok(!out.includes(ESC), 'no terminal escapes in output that is not a terminal');
    rmSync(path.dirname(log), { recursive: true, force: true });
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});

test('setup.sh with an unknown argument is a usage error (exit 2) that installs nothing', async () => {
  const { bin, calls } = stubPath(true);
  try {
    const res = await run(path.join(bin, 'bash'), ['scripts/setup.sh', '--nope'], setupEnv(bin));
    assert.equal(res.code, 2);
    assert.match(res.stderr, /^usage: bash scripts\/setup\.sh \[--no-browser\]$/m);
    assert.equal(calls('sudo') + calls('apt-get') + calls('npm'), '');
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});

const noisyBuild = ['for i in $(seq 1 200); do echo "warning: compiler noise $i"; done', 'echo "> @vscode/sqlite3@5.1.12-vscode install"', 'sleep 1'].join('; ');

test('a long step says what and about how long first, is never silent for long, and keeps compiler noise in its log', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chaindeck-step-'));
  const log = path.join(dir, 'build.log');
  try {
    const args = ['scripts/long-step.mjs', '--tag', 't', '--what', 'building things', '--about', '1 s', '--log', log, '--', 'bash', '-c', noisyBuild];
    const res = await run(process.execPath, args, { ...process.env, CHAINDECK_STEP_HEARTBEAT_MS: '300' });
    assert.equal(res.code, 0, res.stderr);
    const lines = res.stdout.trimEnd().split('\n');
    assert.equal(lines[0], `[t] building things (about 1 s; output in ${log})`);
    assert.match(res.stdout, /^\[t\] {3}… still building things: \d+ s, now @vscode\/sqlite3's install script$/m);
    assert.match(lines.at(-1) ?? '', /^\[t\] building things: done in \d+ s$/);
    assert.ok(!res.stdout.includes('compiler noise'), 'the noise stays in the log');
    assert.equal(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.includes('compiler noise')).length,
      200,
    );
    assert.ok(!(res.stdout + res.stderr).includes(ESC));

    const failed = await run(process.execPath, [...args.slice(0, -1), `${noisyBuild}; exit 3`], process.env);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /^ {2}warning: compiler noise 200$/m, 'the last lines are shown');
    assert.ok(!failed.stderr.includes('compiler noise 170\n'), 'only the last 30 lines');
    assert.match(failed.stderr, /building things failed after \d+ s: bash exited with code 3 \(whole output: .*build\.log\)$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the demo's messages are bold on a terminal only", async () => {
  const say = /^if \[ -t 1 \].*$/m.exec(readFileSync(path.join(root, 'scripts', 'demo.sh'), 'utf8'))?.[0];
  assert.ok(say, 'demo.sh defines say() by whether stdout is a terminal');
  const piped = await run('bash', ['-c', `${say}\nsay hello`], process.env);
  assert.equal(piped.stdout, '[demo] hello\n');
  const onTerminal = await run('script', ['-qec', `bash -c '${say.replaceAll("'", "'\\''")}\nsay hello'`, '/dev/null'], process.env);
  assert.ok(onTerminal.stdout.includes(`${ESC}[1m[demo]${ESC}[0m hello`), JSON.stringify(onTerminal.stdout));
});
