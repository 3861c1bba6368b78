/**
 * The install path of README's commands: child installs start without an outer npm's variables
 * (which made code-server's postinstall see Node 20 and refuse), and the fast test loop never
 * installs anything. Runs the real scripts as subprocesses, in a copy of the project where
 * scripts/setup.sh is replaced by one that records that it ran, and with which environment.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runnerProject } from '../../support/runnerProject';
import { REPO_ROOT } from '../../support/paths';

const root = REPO_ROOT;

function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { ...opts, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

// A PATH of our own, so the tests do not depend on what the calling shell has on its PATH.
const basePath = [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(path.delimiter);

/** What `npm run`/`npm test` adds to a script's environment (as npm 11 does). */
function npmEnv(): NodeJS.ProcessEnv {
  const bin = path.join(root, 'node_modules', '.bin');
  const gyp = path.join(tmpdir(), 'npm', 'node_modules', '@npmcli', 'run-script', 'lib', 'node-gyp-bin');
  // Without NODE_TEST_CONTEXT the runner's own `node --test` reports as if run from a shell.
  const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
  return {
    ...outer,
    PATH: [bin, gyp, basePath].join(path.delimiter),
    npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
    npm_config_nodedir: '/usr',
    npm_config_allow_scripts: '',
    npm_lifecycle_event: 'test',
    npm_lifecycle_script: npmScript('test'),
    npm_package_name: 'chaindeck',
    npm_package_json: path.join(root, 'package.json'),
    npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
    npm_node_execpath: process.execPath,
    npm_command: 'run-script',
    INIT_CWD: root,
    NODE: process.execPath,
  };
}

/** An npm script's command line as package.json has it; npm runs it with `sh -c`. */
function npmScript(name: string): string {
  return (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[name];
}

const printEnv = `node -e 'process.stdout.write(JSON.stringify(process.env))'`;

test("clean-env.mjs --shell cleans a bash script of the outer npm's variables and PATH shims", async () => {
  const env = { ...npmEnv(), CHAINDECK_KEEP_ME: "it's kept" };
  const script = `eval "$(node scripts/clean-env.mjs --shell)" && ${printEnv}`;
  const res = await run('bash', ['-c', script], { cwd: root, env });
  assert.equal(res.code, 0, res.stderr);
  const child = JSON.parse(res.stdout) as Record<string, string>;
  const leaked = Object.keys(child).filter((k) => /^npm_/i.test(k) || k === 'INIT_CWD' || k === 'NODE');
  assert.deepEqual(leaked, []);
  assert.equal(child.CHAINDECK_KEEP_ME, "it's kept", 'other variables are kept');
  assert.equal(child.PATH, basePath, 'PATH loses exactly the entries npm prepended');
});

test('clean-env.mjs keeps a PATH with quotes intact, and is a usage error (2) without --shell', async () => {
  const odd = `/opt/it's here${path.delimiter}${basePath}`;
  const res = await run('bash', ['-c', `eval "$(node scripts/clean-env.mjs --shell)" && ${printEnv}`], {
    cwd: root,
    env: { ...process.env, PATH: `${root}/node_modules/.bin${path.delimiter}${odd}` },
  });
  assert.equal(res.code, 0, res.stderr);
  assert.equal((JSON.parse(res.stdout) as Record<string, string>).PATH, odd);
  const usage = await run(process.execPath, [path.join(root, 'scripts', 'clean-env.mjs')], { cwd: root, env: process.env });
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /usage: eval "\$\(node scripts\/clean-env\.mjs --shell\)"/);
});

const project = (withModules: boolean) => runnerProject(withModules);

test('the unit layer installs nothing: it runs with node_modules as it is', async () => {
  const dir = project(true);
  try {
    const res = await run(process.execPath, ['scripts/test.mjs', 'unit'], { cwd: dir, env: npmEnv() });
    assert.equal(existsSync(path.join(dir, 'setup-ran.json')), false, 'scripts/setup.sh (apt, npm ci) ran for the unit layer');
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /^1 passed, 0 failed$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the unit layer without node_modules says so and fails, installing nothing', async () => {
  const dir = project(false);
  try {
    const res = await run(process.execPath, ['scripts/test.mjs', 'unit'], { cwd: dir, env: npmEnv() });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /node_modules is missing: run `npm ci` first/);
    assert.equal(existsSync(path.join(dir, 'setup-ran.json')), false, 'scripts/setup.sh ran');
    assert.equal(existsSync(path.join(dir, 'node_modules')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the full run installs what is missing first, in a clean environment, and stops if that fails', async () => {
  const dir = project(true);
  try {
    const res = await run('sh', ['-c', npmScript('test')], { cwd: dir, env: npmEnv() });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /setup failed/);
    assert.match(res.stdout, /^0 passed, 1 failed$/m);
    const seen = JSON.parse(readFileSync(path.join(dir, 'setup-ran.json'), 'utf8')) as Record<string, string>;
    assert.equal(seen.npm_config_user_agent, undefined, "setup.sh inherited the outer npm's user agent");
    assert.deepEqual(
      Object.keys(seen).filter((k) => /^npm_/i.test(k) || k === 'INIT_CWD'),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unknown layer is a usage error (exit 2) before anything is installed', async () => {
  const dir = project(true);
  try {
    const res = await run(process.execPath, ['scripts/test.mjs', 'unit', 'nope'], { cwd: dir, env: npmEnv() });
    assert.equal(res.code, 2);
    assert.match(res.stderr, /unknown test layer 'nope'/);
    assert.equal(existsSync(path.join(dir, 'setup-ran.json')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('npm run demo with an unknown argument is a usage error (exit 2) that starts nothing', async () => {
  const res = await run('bash', [path.join(root, 'scripts', 'demo.sh'), '--smok'], { cwd: root, env: npmEnv() });
  assert.equal(res.code, 2);
  assert.match(res.stderr, /unknown argument --smok\nusage: npm run demo \[-- --smoke\]/);
  assert.equal(res.stdout, '', 'nothing was installed, built or started');
});
