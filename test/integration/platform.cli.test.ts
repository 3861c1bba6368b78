/**
 * `chaindeck platform` as users run it: the built dist/cli.js in a subprocess against the
 * loopback platform server. Tables and JSON for every kind, filters, get by id, exit codes and
 * messages for each failure, and no API key or node credential in anything it prints (node
 * credentials only with --show-secrets; the API key never).
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCli, runCli, type CliRun } from '../support/cli';
import { freePort } from '../support/devnets';
import { sampleData, sampleKey, startPlatformServer, type PlatformServer } from '../support/platformServer';

const API_KEY = 'pk_cli_5d4c3b2a19f8e7d6c5b4a3928170';
const MEMBER_KEY = 'pk_cli_member_00112233445566778899';

type Run = CliRun;

const cli = (args: string[], env: Record<string, string | undefined> = { CHAINDECK_API_KEY: API_KEY }) => runCli(args, env);

let server: PlatformServer;
const api = () => ['--api-url', server.url];

/** Every credential the sample nodes hold: keys (alone and inside endpoints) and passwords. */
function nodeCredentials(): string[] {
  return server.data.nodes.flatMap((n) => {
    const d = n.details as Record<string, string>;
    return [d.auth_key, d.auth_password];
  });
}

function assertNotShown(run: Run, secrets: string[]): void {
  for (const s of secrets) {
    assert.ok(!run.stdout.includes(s), `stdout shows ${s}:\n${run.stdout}`);
    assert.ok(!run.stderr.includes(s), `stderr shows ${s}:\n${run.stderr}`);
  }
}

before(async () => {
  await buildCli();
  server = await startPlatformServer({ apiKey: API_KEY, forbiddenKey: MEMBER_KEY, pageSize: 2 });
});
beforeEach(() => {
  server.clear();
  server.data = sampleData({ nodes: 5 });
});
after(() => server.close());

describe('chaindeck platform output', () => {
  test('nodes as a table: aligned columns of every page, endpoints redacted', async () => {
    const run = await cli(['platform', 'nodes', ...api()]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 6, 'a header and five nodes from three pages');
    assert.match(lines[0], /^ID\s+NAME\s+STATUS\s+TYPE\s+REGION\s+NETWORK\s+HTTPS ENDPOINT$/);
    assert.match(lines[1], /^ND-101-202-303\s+node-00\s+running\s+shared\s+us-east1\s+NW-101-202-303\s+https:\/\/nd-101-202-303\.p2pify\.example\.com\/\*\*\*$/);
    const nameColumn = lines[0].indexOf('NAME');
    for (const line of lines.slice(1)) assert.equal(line.indexOf('node-'), nameColumn, `aligned: ${line}`);
    assert.equal(server.requests.length, 3);
  });

  test('nodes as JSON: the objects, credentials masked', async () => {
    const run = await cli(['platform', 'nodes', ...api(), '--format', 'json']);
    assert.equal(run.code, 0, run.stderr);
    const nodes = JSON.parse(run.stdout) as { id: string; details: Record<string, unknown>; extra: object }[];
    assert.deepEqual(
      nodes.map((n) => n.id),
      ['ND-101-202-303', 'ND-102-203-304', 'ND-103-204-305', 'ND-104-205-306', 'ND-105-206-307'],
    );
    assert.equal(nodes[0].details.auth_key, '***');
    assert.equal(nodes[0].details.auth_password, '***');
    assert.equal(nodes[0].details.auth_username, 'user-0');
    assert.equal(nodes[0].details.https_endpoint, 'https://nd-101-202-303.p2pify.example.com/***');
    assert.deepEqual(nodes[0].extra, {});
  });

  test('the other kinds, as tables and JSON', async () => {
    const org = await cli(['platform', 'organization', ...api()]);
    assert.equal(org.stdout, 'ID          NAME\nRG-123-456  Acme Chains\n');
    const orgJson = await cli(['platform', 'organization', ...api(), '--format', 'json']);
    assert.deepEqual(JSON.parse(orgJson.stdout), { id: 'RG-123-456', name: 'Acme Chains', extra: {} });

    const projects = await cli(['platform', 'projects', ...api()]);
    assert.equal(projects.code, 0, projects.stderr);
    assert.match(
      projects.stdout,
      /^ID\s+NAME\s+TYPE\s+NETWORKS\s+CREATED\s+DESCRIPTION\nPR-101-202\s+Mainnet apps\s+public\s+2\s+2024-02-01 10:00\s+Production\nPR-102-203\s+Bitcoin tools\s+public\s+1\s+2024-01-15 10:00\n$/,
    );

    const networks = await cli(['platform', 'networks', ...api()]);
    assert.match(networks.stdout, /^ID\s+NAME\s+PROTOCOL\s+NETWORK\s+PROJECT\s+STATUS\s+NODES\n/);
    assert.match(networks.stdout, /NW-102-203-304\s+Polygon PoS\s+polygon-pos\s+mainnet\s+PR-101-202\s+running\s+2\n/);

    const identities = await cli(['platform', 'identities', ...api(), '--format', 'json']);
    assert.deepEqual(
      (JSON.parse(identities.stdout) as { name: string }[]).map((i) => i.name),
      ['deploy-bot', 'ci'],
    );
  });

  test('filters, order and get by id', async () => {
    const filtered = await cli(['platform', 'nodes', ...api(), '--project', 'PR-102-203', '--format', 'json']);
    assert.deepEqual(
      (JSON.parse(filtered.stdout) as { id: string }[]).map((n) => n.id),
      ['ND-103-204-305'],
    );
    assert.equal(server.requests[0].url, '/v1/nodes/?project=PR-102-203');

    const ordered = await cli(['platform', 'nodes', ...api(), '--status', 'running', '--order-by', '-name', '--format', 'json']);
    assert.deepEqual(
      (JSON.parse(ordered.stdout) as { name: string }[]).map((n) => n.name),
      ['node-04', 'node-03', 'node-01', 'node-00'],
    );

    const one = await cli(['platform', 'nodes', 'ND-102-203-304', ...api(), '--format', 'json']);
    assert.equal(one.code, 0, one.stderr);
    assert.equal((JSON.parse(one.stdout) as { name: string }).name, 'node-01');
    const oneTable = await cli(['platform', 'networks', 'NW-103-204-305', ...api()]);
    assert.match(oneTable.stdout, /^ID\s+NAME.*\nNW-103-204-305\s+Bitcoin\s+bitcoin\s+mainnet\s+PR-102-203\s+running\s+1\n$/);
  });

  test('an empty list says so', async () => {
    server.data.identities = [];
    const run = await cli(['platform', 'identities', ...api()]);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, 'No identities found.\n');
  });
});

describe('chaindeck platform failures: exit 1 with the reason', () => {
  test('no key in the environment', async () => {
    const run = await cli(['platform', 'nodes', ...api()], {});
    assert.equal(run.code, 1);
    assert.match(run.stderr, /no API key: set the environment variable CHAINDECK_API_KEY/);
    assert.equal(server.requests.length, 0);
  });

  test('401 says to set a new key in CHAINDECK_API_KEY; 403 names the action', async () => {
    const wrong = await cli(['platform', 'nodes', ...api()], { CHAINDECK_API_KEY: 'pk_cli_wrong_aaaaaaaaaaaaaaaaaaaa' });
    assert.equal(wrong.code, 1);
    assert.match(
      wrong.stderr,
      /^chaindeck platform: The platform API did not accept the API key \(HTTP 401 .*\)\. The key is wrong or was revoked: set a new one in the environment variable CHAINDECK_API_KEY\.\n$/,
    );
    assertNotShown(wrong, ['pk_cli_wrong_aaaaaaaaaaaaaaaaaaaa']);
    const member = await cli(['platform', 'networks', ...api()], { CHAINDECK_API_KEY: MEMBER_KEY });
    assert.equal(member.code, 1);
    assert.match(member.stderr, /The API key is not allowed to list networks \(HTTP 403/);
  });

  test('404, a 500 midway, a slow API, nothing listening, non-JSON', async () => {
    const missing = await cli(['platform', 'nodes', 'ND-000-000-000', ...api()]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No such node ND-000-000-000 \(HTTP 404/);

    server.fail({ path: '/v1/nodes/', page: 2, fault: { status: 500, body: { error: { code: 'server_error', message: 'Boom.' } } } });
    const midway = await cli(['platform', 'nodes', ...api()]);
    assert.equal(midway.code, 1);
    assert.equal(midway.stdout, '', 'no partial table');
    assert.match(midway.stderr, /Listing nodes failed at page 2, after 2 read: The platform API's server failed \(HTTP 500 .*Boom\. \(server_error\)\)/);
    server.clear();

    server.fail({ path: '/v1/projects/', fault: { delayMs: 3000 } });
    const slow = await cli(['platform', 'projects', ...api(), '--timeout', '300']);
    assert.equal(slow.code, 1);
    assert.match(slow.stderr, /No answer from http:\/\/127\.0\.0\.1:\d+\/v1\/projects\/ within 300 ms\. .*--timeout MS/);
    server.clear();

    const refused = await cli(['platform', 'organization', '--api-url', `http://127.0.0.1:${await freePort()}`]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Cannot reach the platform API at .*connection refused \(ECONNREFUSED\)/);

    server.fail({ path: '/v1/organization/', fault: { status: 200, body: 'hello' } });
    const text = await cli(['platform', 'organization', ...api()]);
    assert.equal(text.code, 1);
    assert.match(text.stderr, /is not JSON \(HTTP 200, text\/plain\): "hello"\. Check the platform API URL/);
  });

  test('a plain-http API URL off this machine is refused; usage errors exit 2', async () => {
    const http = await cli(['platform', 'nodes', '--api-url', 'http://api.example.com']);
    assert.equal(http.code, 2);
    assert.match(http.stderr, /must use https/);
    const usage = await cli(['platform', 'nodes', '--network']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--network needs a value\n\nUsage: chaindeck platform/);
  });
});

describe('chaindeck platform never prints the API key; node credentials only on request', () => {
  test('no output of any kind or format holds the API key or a node credential', async () => {
    const runs: Run[] = [];
    for (const kind of ['organization', 'projects', 'networks', 'nodes', 'identities']) {
      for (const format of ['table', 'json']) runs.push(await cli(['platform', kind, ...api(), '--format', format]));
    }
    runs.push(await cli(['platform', 'nodes', 'ND-101-202-303', ...api(), '--format', 'json']));
    for (const run of runs) {
      assert.equal(run.code, 0, run.stderr);
      assertNotShown(run, [API_KEY, ...nodeCredentials()]);
    }
  });

  test('credentials echoed in unknown fields and by errors are masked too', async () => {
    server.data.nodes[0].notes = `endpoint https://x.example.com/${sampleKey(0)} key ${sampleKey(0)} api ${API_KEY}`;
    server.data.projects[0].description = `owner key ${API_KEY}`;
    for (const args of [['nodes'], ['projects'], ['nodes', '--format', 'json'], ['projects', '--format', 'json']]) {
      const run = await cli(['platform', ...args, ...api()]);
      assert.equal(run.code, 0, run.stderr);
      assertNotShown(run, [API_KEY, ...nodeCredentials()]);
    }
    server.fail({ path: '/v1/nodes/', fault: { status: 401, body: { error: { code: 'authentication_failed', message: `Token ${API_KEY} was revoked.` } } } });
    const echoed = await cli(['platform', 'nodes', ...api()]);
    assert.equal(echoed.code, 1);
    assert.match(echoed.stderr, /Token \*\*\* was revoked/);
    assertNotShown(echoed, [API_KEY]);
  });

  test('--show-secrets shows node credentials, and still never the API key', async () => {
    server.data.nodes[0].notes = `api ${API_KEY}`;
    const table = await cli(['platform', 'nodes', ...api(), '--show-secrets']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout.split('\n')[0], /HTTPS ENDPOINT\s+ACCESS KEY\s+USERNAME\s+PASSWORD$/);
    for (const secret of nodeCredentials()) assert.ok(table.stdout.includes(secret), `table lacks ${secret}`);
    assertNotShown(table, [API_KEY]);

    const json = await cli(['platform', 'nodes', ...api(), '--show-secrets', '--format', 'json']);
    const nodes = JSON.parse(json.stdout) as { details: Record<string, string>; extra: Record<string, string> }[];
    assert.equal(nodes[0].details.auth_key, sampleKey(0));
    assert.equal(nodes[0].details.auth_password, 'pass-0-Xy7!q');
    assert.equal(nodes[0].extra.notes, 'api ***');
    assertNotShown(json, [API_KEY]);
  });

  test('--show-secrets shows endpoints with their keys exactly; without it no key of any shape is shown', async () => {
    const endpoint = 'https://nd-9.p2pify.example.com/abc123key?token=qk-short-1';
    (server.data.nodes[0].details as Record<string, string>).https_endpoint = endpoint;
    const hidden = await cli(['platform', 'nodes', ...api(), '--format', 'json']);
    assert.equal(hidden.code, 0, hidden.stderr);
    assert.equal((JSON.parse(hidden.stdout) as { details: Record<string, string> }[])[0].details.https_endpoint, 'https://nd-9.p2pify.example.com/***?***');
    assertNotShown(hidden, ['abc123key', 'qk-short-1', API_KEY]);
    const table = await cli(['platform', 'nodes', ...api()]);
    assertNotShown(table, ['abc123key', 'qk-short-1', API_KEY]);

    const shown = await cli(['platform', 'nodes', ...api(), '--show-secrets', '--format', 'json']);
    assert.equal(shown.code, 0, shown.stderr);
    const nodes = JSON.parse(shown.stdout) as { details: Record<string, string> }[];
    assert.equal(nodes[0].details.https_endpoint, endpoint);
    assert.equal(nodes[1].details.wss_endpoint, (server.data.nodes[1].details as Record<string, string>).wss_endpoint);
    const shownTable = await cli(['platform', 'nodes', ...api(), '--show-secrets']);
    assert.ok(shownTable.stdout.includes(endpoint), shownTable.stdout);
    assertNotShown(shownTable, [API_KEY]);
  });
});
