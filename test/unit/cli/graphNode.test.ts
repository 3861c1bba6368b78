/** `chaindeck graph-node`: usage errors (exit 2) before anything starts. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { main } from '../../../src/cli/main';

describe('chaindeck graph-node: usage errors (exit 2) before anything starts', () => {
  const io = () => {
    const seen = { out: '', err: '' };
    return { seen, io: { out: (t: string) => void (seen.out += t), err: (t: string) => void (seen.err += t), env: {} } };
  };
  for (const [args, message] of [
    [['graph-node'], 'name the action: start or logs'],
    [['graph-node', 'stop'], "unknown action 'stop': the actions are start and logs"],
    [['graph-node', 'start'], '--rpc URL is required: the JSON-RPC URL of the chain to index'],
    [['graph-node', 'start', '--rpc', 'ws://127.0.0.1:8545'], "--rpc takes an http or https URL, not 'ws://127.0.0.1:8545'"],
    [['graph-node', 'start', '--rpc', 'http://127.0.0.1:8545', '--network', 'main net'], "--network takes a network name such as mainnet, not 'main net'"],
    [['graph-node', 'start', '--rpc', 'http://127.0.0.1:8545', '--http-port', '70000'], "--http-port takes a port number from 1 to 65535, not '70000'"],
    [['graph-node', 'start', '--rpc', '127.0.0.1:8545/k3ySecret'], "--rpc takes an http or https URL, not '127.0.0.1:8545/***'"],
    [['graph-node', 'start', '--rpc', 'ftp://node.example/k3ySecret?token=t0kSecret'], "--rpc takes an http or https URL, not 'ftp://node.example/***?***'"],
    [['graph-node', 'start', '--rpc', 'http://me:pa55Secret@127.0.0.1:8545/'], 'put the username in --user and the password in the environment variable CHAINDECK_PASSWORD, not in the URL'],
    [['graph-node', 'start', '--rpc', 'http://127.0.0.1:8545', '--http-port', '18000', '--admin-port', '18000'], 'port 18000 is given twice: pick a different port for each'],
    [['graph-node', 'start', '--rpc', 'http://127.0.0.1:8545', '--data', ''], "--data takes a folder, not ''"],
  ] as const) {
    test(args.join(' '), async () => {
      const { seen, io: cliIo } = io();
      assert.equal(await main([...args], cliIo), 2);
      assert.equal(seen.out, '');
      assert.ok(seen.err.startsWith(`chaindeck graph-node: ${message}\n\nUsage: chaindeck graph-node start --rpc URL`), seen.err);
      for (const secret of ['k3ySecret', 't0kSecret', 'pa55Secret']) assert.ok(!seen.err.includes(secret), seen.err);
    });
  }
});

describe('chaindeck graph-node logs: usage errors (exit 2) before any node is asked', () => {
  for (const [args, message] of [
    [['graph-node', 'logs'], "--graphql URL is required: the graph-node's GraphQL URL"],
    [['graph-node', 'logs', '--graphql', 'ftp://node.example/k3ySecret'], "--graphql takes an http or https URL, not 'ftp://node.example/***'"],
    [['graph-node', 'logs', '--graphql', 'http://127.0.0.1:1'], '--deployment ID|NAME is required: the deployment id (Qm…) or the subgraph name'],
    [['graph-node', 'logs', '--graphql', 'http://127.0.0.1:1', '--deployment', 'a b'], "--deployment takes a deployment id (Qm…) or a subgraph name, not 'a b'"],
    [['graph-node', 'logs', '--graphql', 'http://127.0.0.1:1', '--deployment', 'x', '--level', 'loud\u001b[2J'], "--level takes debug, info, warning, error or critical, not 'loud'"],
    [['graph-node', 'logs', '--graphql', 'http://127.0.0.1:1', '--deployment', 'x', '--format', 'yaml'], "--format takes text or json, not 'yaml'"],
    [['graph-node', 'logs', '--graphql', 'http://127.0.0.1:1', '--deployment', 'x', 'extra'], 'unexpected argument: extra'],
  ] as const) {
    test(args.join(' '), async () => {
      const seen = { out: '', err: '' };
      const code = await main([...args], { out: (t: string) => void (seen.out += t), err: (t: string) => void (seen.err += t), env: {} });
      assert.equal(code, 2);
      assert.equal(seen.out, '');
      assert.ok(seen.err.startsWith(`chaindeck graph-node logs: ${message}\n\nUsage: chaindeck graph-node logs --graphql URL`), seen.err);
      assert.ok(!seen.err.includes('k3ySecret') && !seen.err.includes('\u001b'), seen.err);
    });
  }

  test('--help names every option and the exit statuses', async () => {
    const seen = { out: '', err: '' };
    assert.equal(await main(['graph-node', 'logs', '--help'], { out: (t: string) => void (seen.out += t), err: (t: string) => void (seen.err += t), env: {} }), 0);
    for (const word of ['--graphql URL', '--deployment ID|NAME', '--level L', '--follow', '--format text|json', 'Exit status:', 'Options:']) assert.ok(seen.out.includes(word), word);
  });
});
