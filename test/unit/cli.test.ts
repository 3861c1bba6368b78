/**
 * The CLI's entry (src/cli.ts), run as a user's shell runs it: an error thrown where no command
 * catches it (a callback, a promise nobody awaits) prints one redacted, inert line and exits 1,
 * never Node's stack trace with the URL's key it quotes.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { buildCli, runCli } from '../support/cli';

const KEY = 'Kk3y-uncaught-0123456789';
let dir: string;
/** A node that takes the connection and never answers: the command is still waiting when the throw comes. */
const silent = net.createServer(() => undefined);

before(async () => {
  await buildCli();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-uncaught-'));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  silent.close();
});

/** Runs `rpc` against the silent node with `throwing` loaded first: it throws while the command waits. */
function runWith(throwing: string) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.js`);
  fs.writeFileSync(file, throwing);
  const { port } = silent.address() as AddressInfo;
  return runCli(['rpc', '--rpc', `http://127.0.0.1:${port}/`, '--timeout', '5000', 'eth_blockNumber'], { NODE_OPTIONS: `--require ${file}` });
}

for (const [what, throwing] of [
  ['a throw in a timer callback', `setTimeout(() => { throw new Error('boom at https://h.example.com/${KEY}\\n    at forged (x.js:1:1) \\x1b[31m'); }, 200);`],
  ['a promise nobody awaits', `setTimeout(() => { Promise.reject(new Error('rejected at https://h.example.com/${KEY}')); }, 200);`],
  ['a thrown non-error', `setTimeout(() => { throw 'thrown text https://h.example.com/${KEY}'; }, 200);`],
]) {
  test(`${what}: one masked, inert line on stderr, exit 1, no stack trace`, async () => {
    const run = await runWith(throwing);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^chaindeck: (boom|rejected|thrown text) [^\n]*\n$/);
    for (const shown of [KEY, '\x1b', 'Timeout', 'node:internal', 'Node.js v']) assert.ok(!run.stderr.includes(shown), run.stderr);
  });
}
