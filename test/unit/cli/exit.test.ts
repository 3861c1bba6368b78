/** The CLI's exit codes and where its help goes, in-process (0 done, 1 failed, 2 usage). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CliIO } from '../../../src/cli/command';
import { main } from '../../../src/cli/main';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: {} };
  const code = await main(argv, io);
  return { code, out, err };
}

test('no command: exit 2, the help on stderr and nothing on stdout', async () => {
  const r = await run();
  assert.equal(r.code, 2);
  assert.equal(r.out, '');
  assert.match(r.err, /^Usage: chaindeck /m);
});

test('--help, -h and help: exit 0, the help on stdout', async () => {
  for (const flag of ['--help', '-h', 'help']) {
    const r = await run(flag);
    assert.equal(r.code, 0, flag);
    assert.match(r.out, /^Usage: chaindeck /m, flag);
    assert.equal(r.err, '', flag);
  }
});

test('an unknown command: exit 2, named on stderr', async () => {
  const r = await run('deploy-everything');
  assert.equal(r.code, 2);
  assert.equal(r.out, '');
  assert.match(r.err, /^chaindeck: unknown command 'deploy-everything'/);
});

test('--version: exit 0, a version on stdout', async () => {
  const r = await run('--version');
  assert.equal(r.code, 0);
  assert.match(r.out, /^\d+\.\d+\.\d+(-[\w.]+)?\n$/);
});

test("a command's --help: exit 0; a bad response cap: exit 2 before anything runs", async () => {
  const help = await run('validate', '--help');
  assert.equal(help.code, 0);
  assert.match(help.out, /validate/);
  let err = '';
  const code = await main(['rpc', '--url', 'http://127.0.0.1:1', 'eth_chainId'], { out: () => undefined, err: (t) => void (err += t), env: { CHAINDECK_MAX_RESPONSE_MB: 'lots' } });
  assert.equal(code, 2);
  assert.match(err, /CHAINDECK_MAX_RESPONSE_MB/);
});

test('--timeout: whole milliseconds from 1 to 24 h, spaces around allowed, nothing else', async () => {
  const { parseTimeout, TIMEOUT_RULE } = await import('../../../src/cli/endpointFlags');
  const { UsageError } = await import('../../../src/cli/args');
  assert.equal(parseTimeout(undefined), undefined);
  assert.equal(parseTimeout('1'), 1);
  assert.equal(parseTimeout(' 250 '), 250);
  assert.equal(parseTimeout('86400000'), 86_400_000);
  for (const bad of ['0', '86400001', '-5', '1.5', '1e3', '5s', '', '1234567890']) {
    assert.throws(
      () => parseTimeout(bad),
      (err: unknown) => err instanceof UsageError && err.message === `--timeout needs ${TIMEOUT_RULE}, not '${bad}'`,
      bad,
    );
  }
  assert.equal(TIMEOUT_RULE, 'a whole number of milliseconds from 1 to 86400000 (24 h)');
});
