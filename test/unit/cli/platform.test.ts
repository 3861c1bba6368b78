/**
 * `chaindeck platform` in-process against the platform API imitation (test/support/platformServer):
 * every usage error (exit 2, before the key is even looked at), the key from CHAINDECK_API_KEY in
 * io.env, tables and JSON, filters and ordering as query parameters, every page read, node
 * credentials masked unless --show-secrets (then printed through outRevealed), the API key never,
 * and 401/403/404/429 and an unreachable API as exit 1 with the reason on stderr.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { main } from '../../../src/cli/main';
import { assertUsageError, runMain, type MainRun } from '../../support/cli';
import { repoPath } from '../../support/paths';
import { sampleData, sampleKey, startPlatformServer, type PlatformServer } from '../../support/platformServer';

const API_KEY = 'cdk-live-9f8e7d6c5b4a39281706';
const FORBIDDEN_KEY = 'cdk-member-1a2b3c4d5e6f7081';
const ID_RULE = 'letters, digits, - and _, starting with a letter or digit, at most 64 characters';
const KINDS = 'organization, projects, networks, nodes, identities';
const USAGE_START = '\n\nUsage: chaindeck platform <organization|projects|networks|nodes|identities> [ID] [options]\n';

let api: PlatformServer;
before(async () => {
  api = await startPlatformServer({ apiKey: API_KEY, forbiddenKey: FORBIDDEN_KEY });
});
after(() => api.close());
beforeEach(() => {
  api.clear();
  api.data = sampleData();
  api.pageSize = 2;
});

const platform = (args: string[], env: NodeJS.ProcessEnv = { CHAINDECK_API_KEY: API_KEY }) => runMain(['platform', ...args, '--api-url', api.url], env);

function assertUsage(run: MainRun, message: string): void {
  assertUsageError(run, { command: 'platform', start: USAGE_START }, message, api.requests);
}

function assertNoSecrets(run: MainRun, secrets: string[]): void {
  for (const s of secrets) for (const [name, text] of Object.entries({ out: run.out, err: run.err, revealed: run.revealed })) assert.ok(!text.includes(s), `${name} shows ${s}:\n${text}`);
}

describe('chaindeck platform: usage errors (exit 2)', () => {
  const cases: [string[], string][] = [
    [[], `name what to list: ${KINDS}`],
    [['things'], `unknown object 'things': choose ${KINDS}`],
    [['Nodes'], `unknown object 'Nodes': choose ${KINDS}`],
    [['nodes', 'ND-1', 'ND-2', 'ND-3'], 'too many arguments: ND-2 ND-3'],
    [['organization', 'RG-123-456'], 'organization takes no ID: the API key belongs to one organization'],
    [['nodes', 'ND 1'], `'ND 1' is not an ID: an ID is ${ID_RULE}`],
    [['nodes', '-ND-1'], `'-ND-1' is not an ID: an ID is ${ID_RULE}`],
    [['nodes', `N${'1'.repeat(64)}`], `'N${'1'.repeat(64)}' is not an ID: an ID is ${ID_RULE}`],
    [['nodes', '--format', 'csv'], "--format is table or json, not 'csv'"],
    [['nodes', '--format=JSON'], "--format is table or json, not 'JSON'"],
    [['nodes', '--timeout', '0'], "--timeout needs a whole number of milliseconds from 1 to 86400000 (24 h), not '0'"],
    [['nodes', '--timeout=86400001'], "--timeout needs a whole number of milliseconds from 1 to 86400000 (24 h), not '86400001'"],
    [
      ['nodes', '--api-key', API_KEY],
      '--api-key is not accepted: a key on the command line shows in the process list and the shell history. Set the environment variable CHAINDECK_API_KEY.',
    ],
    [['nodes', `--key=${API_KEY}`], '--key is not accepted: a key on the command line shows in the process list and the shell history. Set the environment variable CHAINDECK_API_KEY.'],
    [['nodes', '--colour', 'red'], 'unknown option --colour'],
    [['nodes', '--show-secrets=yes'], 'unknown option --show-secrets'],
    [['nodes', '--status', '--format', 'json'], '--status needs a value'],
    [['organization', '--status', 'running'], '--status filters a list; it does not apply to the organization'],
    [['nodes', 'ND-101-202-303', '--protocol', 'ethereum'], '--protocol filters a list; it does not apply to one object by ID'],
    [['projects', '--status', 'running'], 'projects cannot be filtered by --status; projects take --organization'],
    [['identities', '--network', 'NW-1'], 'identities cannot be filtered by --network; identities take --organization'],
    [['networks', '--network', 'NW-1'], 'networks cannot be filtered by --network; networks take --organization, --project, --protocol, --status'],
    [['nodes', '--project', 'PR 1'], `--project takes an ID (${ID_RULE}), not 'PR 1'`],
    [['nodes', '--organization', 'a/b'], `--organization takes an ID (${ID_RULE}), not 'a/b'`],
    [['nodes', '--network', ''], `--network takes an ID (${ID_RULE}), not ''`],
    [['nodes', '--order-by', 'name;drop'], "--order-by takes a field name such as name or -created_at, not 'name;drop'"],
    [['nodes', '--order-by', '--name'], '--order-by needs a value'],
    [['organization', '--order-by', 'name'], '--order-by orders a list'],
    [['nodes', 'ND-101-202-303', '--order-by', 'name'], '--order-by orders a list'],
  ];
  for (const [args, message] of cases) {
    test(`${JSON.stringify(args)}`, async () => assertUsage(await platform(args), message));
  }

  test('usage errors come before the key: exit 2 even without CHAINDECK_API_KEY', async () => {
    assertUsage(await platform(['things'], {}), `unknown object 'things': choose ${KINDS}`);
  });

  test('--api-url: refused when not https (http only on this machine) or not a URL', async () => {
    const run = await runMain(['platform', 'nodes', '--api-url', 'ftp://api.example'], { CHAINDECK_API_KEY: API_KEY });
    assert.equal(run.code, 2);
    assert.ok(
      run.err.startsWith(
        'chaindeck platform: --api-url: The platform API URL must use https (http only for a server on this machine), not ftp://api.example: the API key travels with every request.\n\nUsage: chaindeck platform',
      ),
      run.err,
    );
    const plain = await runMain(['platform', 'nodes', '--api-url=http://api.example.com'], { CHAINDECK_API_KEY: API_KEY });
    assert.equal(plain.code, 2);
    assert.match(plain.err, /^chaindeck platform: --api-url: /);
  });
});

describe('chaindeck platform: the API key', () => {
  test('no key, or only spaces: exit 1 saying where to set it, nothing sent', async () => {
    for (const env of [{}, { CHAINDECK_API_KEY: '' }, { CHAINDECK_API_KEY: '  ' }]) {
      const run = await platform(['nodes'], env);
      assert.equal(run.code, 1);
      assert.equal(run.out, '');
      assert.equal(
        run.err,
        "chaindeck platform: no API key: set the environment variable CHAINDECK_API_KEY to your platform API key (create one in the provider's console, under Settings → API keys).\n",
      );
    }
    assert.equal(api.requests.length, 0);
  });

  test('the key is trimmed and sent as a Bearer token', async () => {
    const run = await platform(['organization'], { CHAINDECK_API_KEY: ` ${API_KEY}\n` });
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(
      api.requests.map((r) => [r.url, r.authorization]),
      [['/v1/organization/', `Bearer ${API_KEY}`]],
    );
  });

  test('401: exit 1, the hint names CHAINDECK_API_KEY; the key is not in the message', async () => {
    const wrong = 'cdk-live-0000000000000000wrong';
    const run = await platform(['nodes'], { CHAINDECK_API_KEY: wrong });
    assert.equal(run.code, 1);
    assert.equal(run.out, '');
    assert.equal(
      run.err,
      `chaindeck platform: The platform API did not accept the API key (HTTP 401 Unauthorized from ${api.url}/v1/nodes/: Invalid API key. (authentication_failed)). The key is wrong or was revoked: set a new one in the environment variable CHAINDECK_API_KEY.\n`,
    );
    assertNoSecrets(run, [wrong]);
  });

  test('403 on a list the key may not read: exit 1, the role explained', async () => {
    const run = await platform(['nodes'], { CHAINDECK_API_KEY: FORBIDDEN_KEY });
    assert.equal(run.code, 1);
    assert.equal(
      run.err,
      `chaindeck platform: The API key is not allowed to list nodes (HTTP 403 Forbidden from ${api.url}/v1/nodes/: You do not have permission to perform this action. (permission_denied)). Keys of users with a restricted role (e.g. member) cannot do everything: ask an organization admin, or use an admin's key.\n`,
    );
    const org = await platform(['organization'], { CHAINDECK_API_KEY: FORBIDDEN_KEY });
    assert.equal(org.code, 0, 'the same key may read the organization');
  });

  test('429 with a Retry-After past --timeout: exit 1 at once, the wait named', async () => {
    api.fail({ path: '/v1/projects/', times: 1, fault: { status: 429, headers: { 'retry-after': '60' }, body: { error: { code: 'throttled', message: 'Slow down.' } } } });
    const started = Date.now();
    const run = await platform(['projects', '--timeout', '5000']);
    assert.ok(Date.now() - started < 4000, 'not by the timeout');
    assert.equal(run.code, 1);
    assert.equal(
      run.err,
      `chaindeck platform: The platform API is rate limiting this key (HTTP 429 Too Many Requests from ${api.url}/v1/projects/: Slow down. (throttled)). It asks to wait 60 s (Retry-After); try again after that.\n`,
    );
    assert.equal(api.requests.length, 1);
  });

  test('a body that echoes the key: the key never printed', async () => {
    api.fail({ path: '/v1/nodes/', times: 1, fault: { status: 401, body: { error: { code: 'bad_key', message: `Key ${API_KEY} is revoked.` } } } });
    const run = await platform(['nodes']);
    assert.equal(run.code, 1);
    assert.match(run.err, /^chaindeck platform: The platform API did not accept the API key/);
    assertNoSecrets(run, [API_KEY]);
  });
});

describe('chaindeck platform: lists and objects (exit 0)', () => {
  test('projects as a table: aligned columns, dates to the minute, trailing spaces trimmed', async () => {
    const run = await platform(['projects']);
    assert.deepEqual(run, {
      code: 0,
      out: 'ID          NAME           TYPE    NETWORKS  CREATED           DESCRIPTION\nPR-101-202  Mainnet apps   public  2         2024-02-01 10:00  Production\nPR-102-203  Bitcoin tools  public  1         2024-01-15 10:00\n',
      revealed: '',
      err: '',
    });
  });

  test('the organization as a table; networks and identities have their columns', async () => {
    assert.equal((await platform(['organization'])).out, 'ID          NAME\nRG-123-456  Acme Chains\n');
    const networks = await platform(['networks', '--project', 'PR-101-202']);
    assert.equal(
      networks.out,
      'ID              NAME              PROTOCOL     NETWORK  PROJECT     STATUS   NODES\nNW-101-202-303  Ethereum Mainnet  ethereum     mainnet  PR-101-202  running  2\nNW-102-203-304  Polygon PoS       polygon-pos  mainnet  PR-101-202  running  2\n',
    );
    const identities = await platform(['identities']);
    assert.equal(
      identities.out,
      'ID          NAME        TYPE  STATUS  CREATED\nID-101-202  deploy-bot  api   active  2024-02-03 09:00\nID-102-203  ci          api   active  2024-02-04 09:00\n',
    );
  });

  test('nodes: every page read; endpoints masked and no credentials without --show-secrets', async () => {
    const run = await platform(['nodes']);
    assert.equal(run.code, 0, run.err);
    const lines = run.out.trimEnd().split('\n');
    assert.equal(lines[0], 'ID              NAME     STATUS   TYPE       REGION        NETWORK         HTTPS ENDPOINT');
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(/\s+/)[0]),
      ['ND-101-202-303', 'ND-102-203-304', 'ND-103-204-305', 'ND-104-205-306', 'ND-105-206-307'],
    );
    assert.equal(lines[1], 'ND-101-202-303  node-00  running  shared     us-east1      NW-101-202-303  https://nd-101-202-303.p2pify.example.com/***');
    assert.deepEqual(
      api.requests.map((r) => r.url.replace(api.url, '')),
      ['/v1/nodes/', '/v1/nodes/?page=2', '/v1/nodes/?page=3'],
    );
    assertNoSecrets(
      run,
      [0, 1, 2, 3, 4].flatMap((i) => [sampleKey(i), `pass-${i}-Xy7!q`]),
    );
    assert.equal(run.revealed, '');
  });

  test("filters and --order-by become query parameters; the server's selection is printed", async () => {
    const run = await platform(['nodes', '--status', 'running', '--network=NW-101-202-303', '--order-by', '-created_at']);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(
      run.out
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(/\s+/)[0]),
      ['ND-101-202-303', 'ND-104-205-306'],
    );
    const query = new URL(api.requests[0].url, 'http://x').searchParams;
    assert.equal(query.get('status'), 'running');
    assert.equal(query.get('network'), 'NW-101-202-303');
    assert.equal(query.get('order_by'), '-created_at');
  });

  test('--show-secrets: the credentials columns, through outRevealed only; the API key still masked', async () => {
    api.data.nodes[0].details = { ...(api.data.nodes[0].details as object), auth_password: API_KEY };
    const run = await platform(['nodes', '--show-secrets', '--network', 'NW-101-202-303']);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.out, '');
    const lines = run.revealed.trimEnd().split('\n');
    assert.equal(
      lines[0],
      'ID              NAME     STATUS   TYPE       REGION        NETWORK         HTTPS ENDPOINT                                                              ACCESS KEY                        USERNAME  PASSWORD',
    );
    assert.equal(
      lines[2],
      `ND-104-205-306  node-03  running  dedicated  europe-west3  NW-101-202-303  https://nd-104-205-306.p2pify.example.com/${sampleKey(3)}  ${sampleKey(3)}  user-3    pass-3-Xy7!q`,
    );
    assert.ok(lines[1].includes(sampleKey(0)));
    assertNoSecrets(run, [API_KEY]);
  });

  test('--show-secrets with an io that has no outRevealed: printed on out', async () => {
    let out = '';
    const code = await main(['platform', 'nodes', 'ND-102-203-304', '--show-secrets', '--format', 'json', '--api-url', api.url], {
      out: (t) => void (out += t),
      err: () => undefined,
      env: { CHAINDECK_API_KEY: API_KEY },
    });
    assert.equal(code, 0);
    assert.equal(JSON.parse(out).details.auth_key, sampleKey(1));
  });

  test('--format json: a list as an array, one object by ID as an object, credentials masked', async () => {
    const list = await platform(['projects', '--format', 'json']);
    assert.equal(list.code, 0);
    const projects = JSON.parse(list.out) as { id: string }[];
    assert.ok(Array.isArray(projects));
    assert.deepEqual(
      projects.map((p) => p.id),
      ['PR-101-202', 'PR-102-203'],
    );
    assert.equal(list.out, `${JSON.stringify(projects, null, 2)}\n`);
    const one = await platform(['nodes', 'ND-101-202-303', '--format=json']);
    assert.equal(one.code, 0, one.err);
    const node = JSON.parse(one.out);
    assert.equal(node.id, 'ND-101-202-303');
    assert.equal(node.details.https_endpoint, 'https://nd-101-202-303.p2pify.example.com/***');
    assert.equal(node.details.auth_key, '***');
    assert.equal(node.details.auth_password, '***');
    assert.equal(node.details.auth_username, 'user-0');
    assert.equal(api.requests.at(-1)!.url, '/v1/nodes/ND-101-202-303/');
  });

  test('an empty list: "No … found." (table) or [] (json), exit 0', async () => {
    const table = await platform(['identities', '--organization', 'RG-000-000']);
    assert.deepEqual(table, { code: 0, out: 'No identities found.\n', revealed: '', err: '' });
    const json = await platform(['identities', '--organization', 'RG-000-000', '--format', 'json']);
    assert.equal(json.out, '[]\n');
  });

  test('table cells: control sequences stripped before widths are measured, whitespace runs as one space, missing values empty', async () => {
    api.data.projects[0] = { id: 'PR-101-202', name: '\u001b[31mRed\u001b[0m\u202e', description: 'line one\n\tline two', type: 'public' };
    const run = await platform(['projects']);
    assert.equal(run.code, 0, run.err);
    assert.equal(
      run.out,
      'ID          NAME           TYPE    NETWORKS  CREATED           DESCRIPTION\nPR-101-202  Red            public                              line one line two\nPR-102-203  Bitcoin tools  public  1         2024-01-15 10:00\n',
    );
  });

  test('a filter value given with = may start with --; the organization as JSON is one object', async () => {
    const run = await platform(['nodes', '--status=--odd']);
    assert.deepEqual(run, { code: 0, out: 'No nodes found.\n', revealed: '', err: '' });
    assert.equal(new URL(api.requests[0].url, 'http://x').searchParams.get('status'), '--odd');
    const org = await platform(['organization', '--format', 'json']);
    assert.equal(org.code, 0, org.err);
    const value = JSON.parse(org.out);
    assert.ok(!Array.isArray(value));
    assert.equal(value.id, 'RG-123-456');
    assert.equal(value.name, 'Acme Chains');
  });

  test('--show-secrets on an empty list: the "No … found." line on out', async () => {
    const run = await platform(['nodes', '--status', 'deleted', '--show-secrets']);
    assert.deepEqual(run, { code: 0, out: 'No nodes found.\n', revealed: '', err: '' });
  });

  test('an unknown ID: exit 1, not found; an API that is not there: exit 1, cannot reach', async () => {
    const missing = await platform(['nodes', 'ND-999-202-303']);
    assert.equal(missing.code, 1);
    assert.equal(missing.out, '');
    assert.equal(
      missing.err,
      `chaindeck platform: No such node ND-999-202-303 (HTTP 404 Not Found from ${api.url}/v1/nodes/ND-999-202-303/: Not found. (not_found)). Check the id: it may have been deleted, or belong to another organization.\n`,
    );
    const down = await runMain(['platform', 'projects', '--api-url', 'http://127.0.0.1:1'], { CHAINDECK_API_KEY: API_KEY });
    assert.equal(down.code, 1);
    assert.equal(
      down.err,
      'chaindeck platform: Cannot reach the platform API at http://127.0.0.1:1/v1/projects/: connection refused (ECONNREFUSED). Is the platform API running, and are the host and port right?\n',
    );
  });
});

describe('free-text filters, objects without details, echoed keys, one timeout for every page', () => {
  /**
   * `chaindeck platform` at the edges the suites above leave open, in-process against the
   * platform API imitation: --protocol and --status are free text (not IDs), --order-by without a
   * leading -, networks and nodes without configuration/details, the API key echoed in a
   * field masked without --show-secrets, one --timeout shared by every page, the keep-alive connection closed when the command returns, and
   * --show-secrets through the process's own stdout writer.
   */
  const API_KEY = 'cdk-live-edges-5a4b3c2d1e0f9988';

  let api: PlatformServer;
  before(async () => {
    api = await startPlatformServer({ apiKey: API_KEY });
  });
  after(() => api.close());
  beforeEach(() => {
    api.clear();
    api.data = sampleData();
    api.pageSize = 2;
  });

  const platform = (args: string[]) => runMain(['platform', ...args, '--api-url', api.url], { CHAINDECK_API_KEY: API_KEY });

  test('--protocol and --status take any text, not only IDs: sent as written', async () => {
    const run = await platform(['nodes', '--protocol', 'polygon pos', '--status=not.running']);
    assert.deepEqual(run, { code: 0, out: 'No nodes found.\n', revealed: '', err: '' });
    const query = new URL(api.requests[0].url, 'http://x').searchParams;
    assert.equal(query.get('protocol'), 'polygon pos');
    assert.equal(query.get('status'), 'not.running');
    const networks = await platform(['networks', '--protocol', 'eth.classic']);
    assert.equal(networks.code, 0, networks.err);
  });

  test('--order-by a field name without a leading -: ascending, sent as written', async () => {
    const run = await platform(['identities', '--order-by', 'name']);
    assert.equal(run.code, 0, run.err);
    assert.equal(new URL(api.requests[0].url, 'http://x').searchParams.get('order_by'), 'name');
  });

  test('a network without configuration and a node without details: empty cells, with or without --show-secrets', async () => {
    api.data.networks = [{ id: 'NW-101-202-303', name: 'Bare', project: 'PR-101-202', protocol: 'ethereum', status: 'running' }];
    const networks = await platform(['networks']);
    assert.equal(networks.code, 0, networks.err);
    assert.equal(networks.out, 'ID              NAME  PROTOCOL  NETWORK  PROJECT     STATUS   NODES\nNW-101-202-303  Bare  ethereum           PR-101-202  running\n');
    api.data.nodes = [{ id: 'ND-101-202-303', name: 'bare', status: 'running', type: 'shared', region: 'us-east1', network: 'NW-101-202-303' }];
    const nodes = await platform(['nodes']);
    assert.equal(nodes.code, 0, nodes.err);
    assert.equal(nodes.out, 'ID              NAME  STATUS   TYPE    REGION    NETWORK         HTTPS ENDPOINT\nND-101-202-303  bare  running  shared  us-east1  NW-101-202-303\n');
    const secrets = await platform(['nodes', '--show-secrets']);
    assert.equal(secrets.code, 0, secrets.err);
    assert.equal(
      secrets.revealed,
      'ID              NAME  STATUS   TYPE    REGION    NETWORK         HTTPS ENDPOINT  ACCESS KEY  USERNAME  PASSWORD\nND-101-202-303  bare  running  shared  us-east1  NW-101-202-303\n',
    );
  });

  test('the API key echoed in any field is masked in the default output too (table and JSON)', async () => {
    api.data.projects = [{ id: 'PR-101-202', name: 'Echo', type: 'public', description: `key ${API_KEY} here` }];
    for (const format of ['table', 'json']) {
      const run = await platform(['projects', '--format', format]);
      assert.equal(run.code, 0, run.err);
      assert.ok(!run.out.includes(API_KEY), run.out);
      assert.ok(run.out.includes('key *** here'), run.out);
    }
  });

  test('--timeout bounds the whole listing: pages that each fit but together do not fail the command', async () => {
    api.pageSize = 1;
    api.fail({ path: '/v1/projects/', fault: { delayMs: 200 } });
    const run = await platform(['projects', '--timeout', '300']);
    assert.equal(run.code, 1);
    assert.equal(run.out, '');
    assert.equal(
      run.err,
      `chaindeck platform: Listing projects failed at page 2, after 1 read: No answer from ${api.url}/v1/projects/?page=2 within 300 ms. Raise the limit with the setting chaindeck.requestTimeoutMs (CLI: --timeout MS).\n`,
    );
    assert.deepEqual(
      api.requests.map((r) => r.url.replace(api.url, '')),
      ['/v1/projects/', '/v1/projects/?page=2'],
    );
  });

  /** A minimal platform API that counts the connections still open. */
  async function connectionCounter(): Promise<{ url: string; open: () => number; close: () => Promise<void> }> {
    const sockets = new Set<Socket>();
    const server = http.createServer((req, res) => {
      const body =
        req.url === '/v1/nodes/'
          ? {
              count: 1,
              next: null,
              previous: null,
              results: [{ id: 'ND-101-202-303', name: 'n', details: { https_endpoint: `https://n.example.com/${sampleKey(0)}`, auth_key: sampleKey(0) } }],
            }
          : { id: 'RG-123-456', name: 'Acme' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      open: () => sockets.size,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  test('the keep-alive connection to the API is closed when the command returns', async () => {
    const server = await connectionCounter();
    try {
      const run = await runMain(['platform', 'organization', '--api-url', server.url], { CHAINDECK_API_KEY: API_KEY });
      assert.equal(run.code, 0, run.err);
      for (let i = 0; i < 25 && server.open(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(server.open(), 0, 'no connection left open');
    } finally {
      await server.close();
    }
  });

  test('the chaindeck process with --show-secrets prints the credentials on stdout, unmasked', async () => {
    const server = await connectionCounter();
    try {
      // A process of its own: main's default writers are process.stdout, which the test runner uses too.
      const env = { ...process.env, CHAINDECK_API_KEY: API_KEY };
      const run = await new Promise<{ err: Error | null; stdout: string }>((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', repoPath('src/cli.ts'), 'platform', 'nodes', '--show-secrets', '--format', 'json', '--api-url', server.url],
          { env, timeout: 20_000 },
          (err, stdout) => resolve({ err, stdout }),
        );
      });
      assert.equal(run.err, null);
      const [node] = JSON.parse(run.stdout) as { details: { auth_key: string; https_endpoint: string } }[];
      assert.equal(node.details.auth_key, sampleKey(0));
      assert.equal(node.details.https_endpoint, `https://n.example.com/${sampleKey(0)}`);
    } finally {
      await server.close();
    }
  });
});

describe('platform nodes --format json: credentials in fields the schema does not know', () => {
  const apiKey = 'pk_unknown_0123456789abcdef';
  let api: PlatformServer;
  before(async () => {
    const details = () => ({ private_key_hex: 'PRIVKEYSECRET', seed_phrase: 'SEEDSECRET', dsn: 'postgres://u:DSNPASS@db/x', 'pass-word': 'PWSECRET', access: 'ACCESSSECRET' });
    api = await startPlatformServer({ apiKey, data: sampleData({ nodes: 1, details }) });
  });
  after(() => api.close());

  test('none of them is printed', async () => {
    const run = await runMain(['platform', 'nodes', '--format', 'json', '--api-url', api.url], { CHAINDECK_API_KEY: apiKey });
    assert.equal(run.code, 0, run.err);
    for (const secret of ['PRIVKEYSECRET', 'SEEDSECRET', 'DSNPASS', 'PWSECRET', 'ACCESSSECRET']) assert.ok(!run.out.includes(secret), `${secret} shown: ${run.out}`);
  });
});
