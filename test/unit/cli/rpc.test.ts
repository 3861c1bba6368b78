/**
 * `chaindeck rpc` in-process (`main` from src/cli/main.ts) against a scripted loopback node: every
 * usage error (exit 2, its exact message, the usage after it, nothing sent), the response printed
 * as JSON (exit 0, or 1 on a JSON-RPC error), batches, HTTP failures and retries (exit 1, the
 * reason on stderr), credentials as the node receives them, and secrets absent from everything the
 * command itself prints (io.out here is not redacted on the way).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DEFAULT_MAX_RESPONSE_MB, setResponseLimitMB } from '../../../src/core/rpc/deadline';
import { assertUsageError, runMain, type MainRun } from '../../support/cli';
import { startRpcServer, type RpcServer } from '../../support/rpcNode';

const KEY = 'abcdef0123456789abcdef0123456789';
const PASSWORD = 'Pw-hunter2-Zq9';
const USAGE_START = '\n\nUsage: chaindeck rpc --rpc URL [--timeout MS] [--user NAME] METHOD [PARAMS_JSON]\n';

let node: RpcServer;
before(async () => {
  node = await startRpcServer();
});
after(() => node.close());
beforeEach(() => {
  node.clear();
  node.methods = { eth_chainId: { result: '0x539' }, eth_blockNumber: { result: '0x10' }, echo: (params) => ({ result: params }) };
});

const rpc = (args: string[], env: NodeJS.ProcessEnv = {}) => runMain(['rpc', ...args], env);

/** A usage error: exit 2, nothing on stdout, `chaindeck rpc: MESSAGE` then the usage, and no request sent. */
function assertUsage(run: MainRun, message: string): void {
  assertUsageError(run, { command: 'rpc', start: USAGE_START, end: '--user alice web3_clientVersion\n' }, message, node.requests);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('chaindeck rpc: usage errors (exit 2)', () => {
  const timeoutRule = 'a whole number of milliseconds from 1 to 86400000 (24 h)';
  const cases: [string[], string][] = [
    [[], '--rpc is required'],
    [['eth_chainId'], '--rpc is required'],
    [['--url='], '--rpc is required'],
    [['--url'], '--url needs a value'],
    [['eth_chainId', '--url'], '--url needs a value'],
    [['--bogus', 'x'], 'unknown option --bogus'],
    [['--url=x', '--Url', 'y'], 'unknown option --Url'],
    [
      ['--password', 'x'],
      '--password is not accepted: a password on the command line shows in the process list and the shell history. Set the environment variable CHAINDECK_PASSWORD and pass --user NAME.',
    ],
    [
      ['--password=x'],
      '--password is not accepted: a password on the command line shows in the process list and the shell history. Set the environment variable CHAINDECK_PASSWORD and pass --user NAME.',
    ],
  ];
  for (const [args, message] of cases) {
    test(`${JSON.stringify(args)}: ${message.slice(0, 40)}`, async () => assertUsage(await rpc(args), message));
  }

  test('METHOD is required; --batch and METHOD together are refused; at most METHOD and PARAMS_JSON', async () => {
    assertUsage(await rpc(['--url', node.url]), 'METHOD is required');
    assertUsage(await rpc(['--url', node.url, '--timeout', '100']), 'METHOD is required');
    assertUsage(await rpc(['--url', node.url, '--batch', '[{"method":"eth_chainId"}]', 'eth_chainId']), '--batch takes the calls as its value: give no METHOD');
    assertUsage(await rpc(['--url', node.url, 'eth_call', '[]', 'latest', 'x']), 'too many arguments: PARAMS_JSON must be one argument (quote it): latest x');
    assertUsage(await rpc(['--url', node.url, '--', 'eth_call', '[]', '--more']), 'too many arguments: PARAMS_JSON must be one argument (quote it): --more');
  });

  test('--timeout: 1 to 86400000 whole milliseconds, digits only', async () => {
    for (const bad of ['0', '86400001', '-1', '1.5', '1e3', '10s', '', ' ', '0x10', '1234567890']) {
      assertUsage(await rpc(['--url', node.url, `--timeout=${bad}`, 'eth_chainId']), `--timeout needs ${timeoutRule}, not '${bad}'`);
    }
  });

  test('--timeout at its bounds and with spaces is taken', async () => {
    for (const good of ['86400000', ' 5000 ', '1000']) {
      const run = await rpc(['--url', node.url, '--timeout', good, 'eth_chainId']);
      assert.equal(run.code, 0, `${good}: ${run.err}`);
    }
  });

  test('PARAMS_JSON: not JSON, or JSON that is neither array nor object', async () => {
    assertUsage(
      await rpc(['--url', node.url, 'eth_call', '[1,']),
      'Params are not valid JSON: expected a value (string, number, object, array, true, false or null) but found the end of the text at line 1, column 4 (position 3).',
    );
    assertUsage(await rpc(['--url', node.url, 'eth_call', '["a"\n x]']), "Params are not valid JSON: expected ',' or ']' but found 'x' at line 2, column 2 (position 6).");
    assertUsage(await rpc(['--url', node.url, 'eth_call', '5']), 'Params must be a JSON array (positional) or a JSON object (named), not number: for example ["0x1", "latest"].');
    assertUsage(await rpc(['--url', node.url, 'eth_call', 'null']), 'Params must be a JSON array (positional) or a JSON object (named), not null: for example ["0x1", "latest"].');
    assertUsage(await rpc(['--url', node.url, 'eth_call', '"latest"']), 'Params must be a JSON array (positional) or a JSON object (named), not string: for example ["0x1", "latest"].');
  });

  test('--batch: a non-empty array of objects with a method string', async () => {
    const shape = '--batch needs a non-empty JSON array of {"method": ..., "params": [...]}';
    assertUsage(await rpc(['--url', node.url, '--batch', '[]']), shape);
    assertUsage(await rpc(['--url', node.url, '--batch', '{"method":"eth_chainId"}']), shape);
    assertUsage(await rpc(['--url', node.url, '--batch=[1]']), '--batch element 0 needs a "method" string: 1');
    assertUsage(await rpc(['--url', node.url, '--batch', '[null]']), '--batch element 0 needs a "method" string: null');
    assertUsage(await rpc(['--url', node.url, '--batch', '[{"method":"a"},{"method":7}]']), '--batch element 1 needs a "method" string: {"method":7}');
    assertUsage(await rpc(['--url', node.url, '--batch', '[{"method":"a"},{"params":[]}]']), '--batch element 1 needs a "method" string: {"params":[]}');
    assertUsage(
      await rpc(['--url', node.url, '--batch', '[{"method":"a"']),
      "The --batch calls are not valid JSON: expected ',' or '}' but found the end of the text at line 1, column 15 (position 14).",
    );
    assertUsage(await rpc(['--url', node.url, '--batch', '"eth_chainId"']), shape);
    assertUsage(
      await rpc(['--url', node.url, '--batch', `${'['.repeat(70)}${']'.repeat(70)}`]),
      'The --batch calls are nested more than 64 levels deep at line 1, column 65 (position 64): no JSON-RPC method takes that.',
    );
    assertUsage(await rpc(['--url', node.url, '--batch']), '--batch needs a value');
  });

  test('endpoint problems: scheme, spaces, a password in the URL, --user without its password, a bad CHAINDECK_PUBLIC_PATH', async () => {
    const scheme = await rpc(['--url', `ftp://node.example/${KEY}`, 'eth_chainId']);
    assertUsage(scheme, "Unsupported scheme 'ftp' in ftp://node.example/***: a node endpoint's scheme is https or wss (http or ws for a local node).");
    assert.ok(!scheme.err.includes(KEY));
    assertUsage(await rpc(['--url', 'not a url', 'eth_chainId']), 'An endpoint URL has no spaces.');
    const inUrl = await rpc(['--url', `http://alice:${PASSWORD}@127.0.0.1:1/`, 'eth_chainId']);
    assertUsage(inUrl, 'put the username in --user and the password in the environment variable CHAINDECK_PASSWORD, not in the URL');
    assert.ok(!inUrl.err.includes(PASSWORD));
    assertUsage(await rpc(['--url', node.url, '--user', 'alice', 'eth_chainId']), '--user needs the password in the environment variable CHAINDECK_PASSWORD');
    assertUsage(
      await rpc(['--url', node.url, '--user', 'al:ice', 'eth_chainId'], { CHAINDECK_PASSWORD: PASSWORD }),
      "--user: A username cannot contain ':': HTTP Basic sends username:password, so the server would split it there.",
    );
    for (const value of ['yes', 'true', '2']) {
      assertUsage(await rpc(['--url', node.url, 'eth_chainId'], { CHAINDECK_PUBLIC_PATH: value }), `CHAINDECK_PUBLIC_PATH is 1 (the path of the URL holds no secret) or 0, not '${value}'`);
    }
  });

  test('--help anywhere after the command prints the usage on stdout, exit 0, nothing sent', async () => {
    for (const args of [['--help'], ['--url', node.url, 'eth_chainId', '-h']]) {
      const run = await rpc(args);
      assert.equal(run.code, 0);
      assert.equal(run.err, '');
      assert.ok(run.out.startsWith('Usage: chaindeck rpc --rpc URL'), run.out);
      assert.ok(run.out.endsWith('--user alice web3_clientVersion\n'));
    }
    assert.equal(node.requests.length, 0);
  });
});

describe('chaindeck rpc: the node answers', () => {
  test('one call: the whole response as two-space JSON on stdout, exit 0, stderr empty; params default to []', async () => {
    const run = await rpc(['--url', node.url, 'eth_chainId']);
    assert.deepEqual(run, { code: 0, out: json({ jsonrpc: '2.0', id: 1, result: '0x539' }), revealed: '', err: '' });
    assert.equal(node.calls.length, 1);
    assert.equal(node.calls[0].method, 'eth_chainId');
    assert.deepEqual(node.calls[0].params, []);
    assert.equal(node.calls[0].jsonrpc, '2.0');
  });

  test('positional and named params are sent as written; --url=, --timeout= and -- are understood', async () => {
    const positional = await rpc([`--url=${node.url}`, '--timeout=5000', 'echo', '["0x1", {"to": "0x2"}, true]']);
    assert.equal(positional.code, 0, positional.err);
    assert.deepEqual(JSON.parse(positional.out).result, ['0x1', { to: '0x2' }, true]);
    const named = await rpc(['--url', node.url, 'echo', '{"block": "latest"}']);
    assert.deepEqual(JSON.parse(named.out).result, { block: 'latest' });
    node.methods['--odd'] = { result: 'odd' };
    const dashed = await rpc(['--url', node.url, '--', '--odd']);
    assert.equal(dashed.code, 0, dashed.err);
    assert.equal(JSON.parse(dashed.out).result, 'odd');
    assert.deepEqual(
      node.calls.map((c) => c.method),
      ['echo', 'echo', '--odd'],
    );
  });

  test('a JSON-RPC error object: printed on stdout, exit 1, code and message on stderr', async () => {
    node.methods.eth_call = { error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } };
    const run = await rpc(['--url', node.url, 'eth_call', '[{}, "latest"]']);
    assert.equal(run.code, 1);
    assert.deepEqual(JSON.parse(run.out), { jsonrpc: '2.0', id: 1, error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } });
    assert.equal(run.err, 'chaindeck rpc: JSON-RPC error 3: execution reverted\n');
  });

  test('control characters the node sends are escaped in the printed JSON, not passed to the terminal', async () => {
    node.methods.web3_clientVersion = { result: 'Geth\u001b[2J\u0007/v1' };
    const run = await rpc(['--url', node.url, 'web3_clientVersion']);
    assert.equal(run.code, 0);
    assert.ok(![...run.out].some((c) => c !== '\n' && c.charCodeAt(0) < 0x20), JSON.stringify(run.out));
    assert.equal(JSON.parse(run.out).result, 'Geth\u001b[2J\u0007/v1');
  });

  test('a batch: one request, the responses as an array in call order; exit 0 when all succeeded', async () => {
    const run = await rpc(['--url', node.url, '--batch', '[{"method":"eth_blockNumber"},{"method":"echo","params":[7]},{"method":"eth_chainId"}]']);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.err, '');
    assert.equal(
      run.out,
      json([
        { jsonrpc: '2.0', id: 1, result: '0x10' },
        { jsonrpc: '2.0', id: 2, result: [7] },
        { jsonrpc: '2.0', id: 3, result: '0x539' },
      ]),
    );
    assert.equal(node.requests.length, 1);
    assert.deepEqual(
      node.calls.map((c) => [c.method, c.params]),
      [
        ['eth_blockNumber', []],
        ['echo', [7]],
        ['eth_chainId', []],
      ],
    );
  });

  test('a batch with failed calls: every response printed, one stderr line per failed call naming its index and method, exit 1', async () => {
    node.methods.eth_call = { error: { code: -32000, message: 'out of gas' } };
    const run = await rpc(['--url', node.url, '--batch', '[{"method":"eth_call"},{"method":"eth_chainId"},{"method":"foo_bar"}]']);
    assert.equal(run.code, 1);
    assert.equal(
      run.out,
      json([
        { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'out of gas' } },
        { jsonrpc: '2.0', id: 2, result: '0x539' },
        { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } },
      ]),
    );
    assert.equal(run.err, 'chaindeck rpc: call 0 (eth_call): JSON-RPC error -32000: out of gas\nchaindeck rpc: call 2 (foo_bar): JSON-RPC error -32601: Method not found\n');
  });

  test('a batch the node answers with its responses reordered: printed in call order', async () => {
    node.reply = (req) => {
      const calls = JSON.parse(req.text) as { id: number; method: string }[];
      return { body: calls.map((c) => ({ jsonrpc: '2.0', id: c.id, result: c.method })).reverse() };
    };
    const run = await rpc(['--url', node.url, '--batch', '[{"method":"a"},{"method":"b"}]']);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(JSON.parse(run.out), [
      { jsonrpc: '2.0', id: 1, result: 'a' },
      { jsonrpc: '2.0', id: 2, result: 'b' },
    ]);
  });
});

test('chaindeck rpc: a batch the node answers only in part: null for the missing response, exit 1 naming that call', async () => {
  node.clear();
  node.reply = (req) => {
    const calls = JSON.parse(req.text) as { id: number }[];
    return { body: [{ jsonrpc: '2.0', id: calls[0].id, result: '0x1' }] };
  };
  const run = await rpc(['--url', node.url, '--batch', '[{"method":"eth_chainId"},{"method":"eth_blockNumber"}]']);
  assert.equal(run.code, 1);
  assert.deepEqual(JSON.parse(run.out), [{ jsonrpc: '2.0', id: 1, result: '0x1' }, null]);
  assert.equal(run.err, "chaindeck rpc: call 1 (eth_blockNumber): The node's batch reply has no answer for request id 2 (eth_blockNumber).\n");
  assert.ok(!run.err.includes('call 0'));
});

describe('chaindeck rpc: credentials', () => {
  test('a key in the path is sent in the path; Basic from --user and CHAINDECK_PASSWORD; both together', async () => {
    assert.equal((await rpc(['--url', `${node.url}/${KEY}`, 'eth_chainId'])).code, 0);
    assert.equal(node.requests[0].url, `/${KEY}`);
    assert.equal(node.requests[0].authorization, undefined);
    node.clear();
    assert.equal((await rpc(['--url', node.url, '--user', 'alice', 'eth_chainId'], { CHAINDECK_PASSWORD: PASSWORD })).code, 0);
    assert.equal(node.requests[0].authorization, `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`);
    node.clear();
    assert.equal((await rpc(['--url', `${node.url}/${KEY}`, '--user=bob', 'eth_chainId'], { CHAINDECK_PASSWORD: PASSWORD })).code, 0);
    assert.equal(node.requests[0].url, `/${KEY}`);
    assert.equal(node.requests[0].authorization, `Basic ${Buffer.from(`bob:${PASSWORD}`).toString('base64')}`);
  });

  test('401 and 403: exit 1, the credentials named, neither key nor password in anything printed', async () => {
    for (const status of [401, 403]) {
      node.reply = () => ({ status, body: `denied ${status}` });
      const keyed = await rpc(['--url', `${node.url}/${KEY}`, 'eth_chainId']);
      assert.equal(keyed.code, 1);
      assert.equal(keyed.out, '');
      const text = status === 401 ? 'Unauthorized' : 'Forbidden';
      assert.equal(
        keyed.err,
        `chaindeck rpc: The node refused the credentials (HTTP ${status} ${text} from ${node.url}/***). Credentials used: access key in the URL path. Check that the access key is right and belongs to this node (copy the endpoint again from the console).\n`,
      );
      const basic = await rpc(['--url', `${node.url}/${KEY}`, '--user', 'alice', 'eth_chainId'], { CHAINDECK_PASSWORD: PASSWORD });
      assert.equal(basic.code, 1);
      assert.match(basic.err, /Credentials used: /);
      for (const run of [keyed, basic]) for (const secret of [KEY, PASSWORD]) assert.ok(!run.err.includes(secret) && !run.out.includes(secret), run.err);
    }
    assert.equal(node.requests.length, 4, 'an auth failure is not retried');
  });

  test('CHAINDECK_PUBLIC_PATH=0 and unset hide the path in messages; 1 shows it', async () => {
    // Hidden first: a URL declared public stays public for the rest of the process.
    node.reply = () => ({ status: 404, body: '' });
    for (const env of [{ CHAINDECK_PUBLIC_PATH: '0' }, { CHAINDECK_PUBLIC_PATH: '' }, {}]) {
      const hidden = await rpc(['--url', `${node.url}/rpc`, 'eth_chainId'], env);
      assert.equal(hidden.code, 1);
      assert.equal(
        hidden.err,
        `chaindeck rpc: Unexpected HTTP 404 Not Found from ${node.url}/***. Check the URL: a JSON-RPC endpoint answers POST requests with HTTP 200.\n`,
        JSON.stringify(env),
      );
    }
    // Another path: `rpc` was a secret of the runs above, and a secret stays one for the process.
    const shown = await rpc(['--url', `${node.url}/public`, 'eth_chainId'], { CHAINDECK_PUBLIC_PATH: '1' });
    assert.equal(shown.code, 1);
    assert.equal(shown.err, `chaindeck rpc: Unexpected HTTP 404 Not Found from ${node.url}/public. Check the URL: a JSON-RPC endpoint answers POST requests with HTTP 200.\n`);
  });
});

describe('chaindeck rpc: failures (exit 1, the reason on stderr, nothing on stdout)', () => {
  test('429 with a Retry-After past --timeout: gives up at once, after one request', async () => {
    node.reply = () => ({ status: 429, headers: { 'retry-after': '8' }, body: '' });
    const started = Date.now();
    const run = await rpc(['--url', node.url, '--timeout', '5000', 'eth_chainId']);
    assert.ok(Date.now() - started < 4000, 'not by the timeout');
    assert.equal(run.code, 1);
    assert.equal(run.out, '');
    assert.equal(
      run.err,
      `chaindeck rpc: Rate limited by the node (HTTP 429 Too Many Requests from ${node.url}/). The node asks to wait 8 s (Retry-After). Slow down, or send calls in batches. Gave up: waiting to retry would go past the 5000 ms timeout (--timeout, or the setting chaindeck.requestTimeoutMs).\n`,
    );
    assert.equal(node.requests.length, 1);
  });

  test('429 and 503 with Retry-After: 0 are retried twice, then fail; a later success wins', async () => {
    node.reply = () => ({ status: 429, headers: { 'retry-after': '0' }, body: '' });
    const limited = await rpc(['--url', node.url, 'eth_chainId']);
    assert.equal(limited.code, 1);
    assert.equal(
      limited.err,
      `chaindeck rpc: Rate limited by the node (HTTP 429 Too Many Requests from ${node.url}/). The node asks to wait 0 s (Retry-After). Slow down, or send calls in batches.\n`,
    );
    assert.equal(node.requests.length, 3);
    node.clear();
    node.reply = () => ({ status: 503, headers: { 'retry-after': '0' }, body: 'maintenance' });
    const down = await rpc(['--url', node.url, 'eth_chainId']);
    assert.equal(
      down.err,
      `chaindeck rpc: The node's server failed (HTTP 503 Service Unavailable from ${node.url}/): "maintenance". Try again later; if it persists, check the node's status in the console.\n`,
    );
    assert.equal(node.requests.length, 3);
    node.clear();
    node.reply = (_req, attempt) => (attempt < 3 ? { status: 500, headers: { 'retry-after': '0' }, body: 'boom' } : undefined);
    const recovered = await rpc(['--url', node.url, 'eth_blockNumber']);
    assert.equal(recovered.code, 0, recovered.err);
    assert.deepEqual(JSON.parse(recovered.out), { jsonrpc: '2.0', id: 1, result: '0x10' });
    assert.equal(node.requests.length, 3);
  });

  test('not JSON, or JSON that is not JSON-RPC', async () => {
    node.reply = () => ({ headers: { 'content-type': 'text/html' }, body: '<html>login</html>' });
    const html = await rpc(['--url', node.url, 'eth_chainId']);
    assert.equal(html.code, 1);
    assert.equal(html.out, '');
    assert.equal(
      html.err,
      `chaindeck rpc: The reply from ${node.url}/ is not JSON (HTTP 200, an HTML page): "<html>login</html>". This does not look like a JSON-RPC endpoint; check the URL.\n`,
    );
    node.reply = () => ({ body: { hello: 1 } });
    const other = await rpc(['--url', node.url, 'eth_chainId']);
    assert.equal(other.code, 1);
    assert.equal(
      other.err,
      `chaindeck rpc: The reply from ${node.url}/ is JSON but not a JSON-RPC response: "{\\"hello\\":1}". This does not look like a JSON-RPC endpoint; check the URL.\n`,
    );
  });

  test('no answer within --timeout: exit 1 naming the timeout, well before the node would answer', async () => {
    node.reply = () => ({ delayMs: 20_000, body: { jsonrpc: '2.0', id: 1, result: '0x1' } });
    const started = Date.now();
    const run = await rpc(['--url', `${node.url}/${KEY}`, '--timeout', '300', 'eth_chainId']);
    assert.ok(Date.now() - started < 10_000);
    assert.equal(run.code, 1);
    assert.equal(run.out, '');
    assert.match(run.err, /^chaindeck rpc: No answer from http:\/\/127\.0\.0\.1:\d+\/\*\*\* within 300 ms/);
    assert.ok(!run.err.includes(KEY));
  });

  test('nothing listening: exit 1, connection refused', async () => {
    const run = await rpc(['--url', 'http://127.0.0.1:1', 'eth_chainId']);
    assert.equal(run.code, 1);
    assert.equal(run.err, 'chaindeck rpc: Cannot reach the node at http://127.0.0.1:1/: connection refused (ECONNREFUSED). Is the node running, and are the host and port right?\n');
  });

  test('CHAINDECK_MAX_RESPONSE_MB: a bad value is a usage error before any request; a reply above the cap fails', async () => {
    for (const bad of ['0', '4097', '1.5', 'lots', '-1']) {
      const run = await rpc(['--url', node.url, 'eth_chainId'], { CHAINDECK_MAX_RESPONSE_MB: bad });
      assert.equal(run.code, 2, bad);
      assert.equal(run.err, `chaindeck: CHAINDECK_MAX_RESPONSE_MB: the response cap is a whole number of MiB from 1 to 4096, not '${bad}'\n`);
    }
    assert.equal(node.requests.length, 0);
    try {
      node.methods.big = { result: 'x'.repeat(1024 * 1024 + 10) };
      const run = await rpc(['--url', node.url, 'big'], { CHAINDECK_MAX_RESPONSE_MB: ' 1 ' });
      assert.equal(run.code, 1);
      assert.equal(run.out, '');
      assert.match(run.err, /^chaindeck rpc: .*1 MiB/);
    } finally {
      setResponseLimitMB(DEFAULT_MAX_RESPONSE_MB);
    }
  });
});

describe('the endpoint flags: the redaction help, public paths, URLs that merely contain ws:', () => {
  test("rpc and storage-range --help: the endpoint's redaction rule, and how to show a public path", async () => {
    for (const command of ['rpc', 'storage-range']) {
      const run = await runMain([command, '--help']);
      assert.equal(run.code, 0);
      assert.ok(
        run.out.includes('Its path, query and user:password@ are secret and shown only as ***;\n                  set CHAINDECK_PUBLIC_PATH=1 when the path holds no key (e.g. /rpc).\n'),
        run.out,
      );
    }
  });

  test('CHAINDECK_PUBLIC_PATH=1 with a key in the query: messages show the path, the query masked', async () => {
    node.reply = () => ({ status: 404, body: '' });
    const run = await runMain(['rpc', '--url', `${node.url}/public-rpc?key=0123456789abcdef`, 'eth_chainId'], { CHAINDECK_PUBLIC_PATH: '1' });
    assert.equal(run.code, 1);
    assert.equal(run.err, `chaindeck rpc: Unexpected HTTP 404 Not Found from ${node.url}/public-rpc?***. Check the URL: a JSON-RPC endpoint answers POST requests with HTTP 200.\n`);
  });

  test('an http:// URL with "ws:" further on is still called over HTTP', async () => {
    const run = await runMain(['rpc', '--url', `${node.url}/ws:8546`, 'eth_chainId']);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(JSON.parse(run.out), { jsonrpc: '2.0', id: 1, result: '0x539' });
    assert.equal(node.requests.length, 1);
  });
});
