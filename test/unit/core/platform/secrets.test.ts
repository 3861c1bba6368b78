import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { CliIO } from '../../../../src/cli/command';
import { main } from '../../../../src/cli/main';
import { renderColumns } from '../../../../src/cli/platform';
import { PlatformClient } from '../../../../src/core/platform/client';
import { PlatformError } from '../../../../src/core/platform/errors';
import { parseObject } from '../../../../src/core/platform/parse';
import { maskValues, redactSecrets, secretsOf } from '../../../../src/core/platform/secrets';
import { runMain } from '../../../support/cli';
import { sampleData, startPlatformServer, type PlatformServer } from '../../../support/platformServer';

const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';
const PASSWORD = 'pw-Zq8!long';

const raw = {
  id: 'ND-1',
  name: 'n',
  details: {
    https_endpoint: `https://nd-1.p2pify.com/${KEY}`,
    wss_endpoint: `wss://ws-nd-1.p2pify.com/${KEY}`,
    auth_key: KEY,
    auth_username: 'alice',
    auth_password: PASSWORD,
    graphql_token: 'gq-unknown-field-0001',
    token_type: 'Bearer',
  },
  notes: `copied from https://nd-1.p2pify.com/${KEY} by alice, password ${PASSWORD}`,
  integrations: [{ token: 'tok-123456' }],
};

describe('platform objects are shown without credentials', () => {
  test('secretsOf finds values of secret-named fields at any depth', () => {
    assert.deepEqual(secretsOf(raw).sort(), [KEY, PASSWORD, 'gq-unknown-field-0001', 'tok-123456'].sort());
  });

  test('redactSecrets masks those fields, the keys in endpoints, and their values anywhere', () => {
    const shown = redactSecrets(parseObject('nodes', raw));
    const text = JSON.stringify(shown);
    for (const s of [KEY, PASSWORD, 'gq-unknown-field-0001', 'tok-123456']) assert.ok(!text.includes(s), `${s} shown: ${text}`);
    assert.equal(shown.details?.auth_key, '***');
    assert.equal(shown.details?.auth_password, '***');
    assert.equal(shown.details?.auth_username, 'alice', 'a username is not a secret');
    assert.equal(shown.details?.https_endpoint, 'https://nd-1.p2pify.com/***');
    assert.equal(shown.details?.extra.graphql_token, '***', 'a field the schema does not know, masked by its name');
    assert.equal(shown.details?.extra.token_type, 'Bearer', 'a fact about a token is no secret');
    assert.equal(shown.id, 'ND-1');
  });

  test('redactSecrets masks extra values too (the API key); maskValues masks only those', () => {
    const apiKey = 'pk_abcdefgh12345678';
    assert.deepEqual(redactSecrets({ id: 'x', echo: `key ${apiKey}` }, [apiKey]), { id: 'x', echo: 'key ***' });
    const shown = maskValues(raw, [apiKey, 'alice']);
    assert.equal(shown.details.auth_key, KEY, 'credentials stay when they are asked for');
    assert.equal(shown.details.auth_username, '***');
    assert.equal(shown.notes.includes('by ***,'), true);
  });
});

describe('the CLI table and arguments', () => {
  test('columns are aligned to the widest cell, with no trailing spaces', () => {
    const text = renderColumns(
      [
        { title: 'ID', cell: (r: { id: string; n?: string }) => r.id },
        { title: 'NAME', cell: (r: { id: string; n?: string }) => r.n },
        { title: 'X', cell: () => 'x' },
      ],
      [{ id: 'ND-1', n: 'a long name' }, { id: 'ND-22' }],
    );
    assert.equal(text, 'ID     NAME         X\nND-1   a long name  x\nND-22               x\n');
  });

  function io(env: NodeJS.ProcessEnv = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const cli: CliIO = { out: (t) => void out.push(t), err: (t) => void err.push(t), env };
    return { cli, out, err };
  }

  test('usage errors exit 2 before any request, and name the problem', async () => {
    const cases: [string[], RegExp][] = [
      [['platform'], /name what to list: organization, projects, networks, nodes, identities/],
      [['platform', 'servers'], /unknown object 'servers'/],
      [['platform', 'nodes', '--format', 'yaml'], /--format is table or json, not 'yaml'/],
      [['platform', 'nodes', '--timeout', '0'], /--timeout needs a whole number of milliseconds from 1 to 86400000/],
      [['platform', 'projects', '--status', 'running'], /projects cannot be filtered by --status; projects take --organization/],
      [['platform', 'nodes', 'ND-1', '--project', 'PR-1'], /--project filters a list; it does not apply to one object by ID/],
      [['platform', 'organization', 'RG-1'], /organization takes no ID/],
      [['platform', 'nodes', '--api-key', 'x'], /--api-key is not accepted.*CHAINDECK_API_KEY/],
      [['platform', 'nodes', '--bogus'], /unknown option --bogus/],
      [['platform', 'nodes', '--project'], /--project needs a value/],
    ];
    for (const [argv, message] of cases) {
      const t = io({ CHAINDECK_API_KEY: 'k-12345678' });
      assert.equal(await main(argv, t.cli), 2, argv.join(' '));
      assert.match(t.err.join(''), message);
      assert.match(t.err.join(''), /Usage: chaindeck platform/);
    }
  });

  test('no API key in the environment: exit 1, saying which variable to set', async () => {
    const t = io({});
    assert.equal(await main(['platform', 'nodes'], t.cli), 1);
    assert.match(t.err.join(''), /^chaindeck platform: no API key: set the environment variable CHAINDECK_API_KEY/);
    assert.deepEqual(t.out, []);
  });

  test('the platform command is listed in the help', async () => {
    const t = io();
    await main(['--help'], t.cli);
    assert.match(t.out.join(''), /platform\s+List the organization, projects, networks, nodes or identities/);
  });
});

describe('redactSecrets and secretsOf: which fields are secrets', () => {
  test('fact words after the secret word make a fact about it: token_type, password_updated_at, key_id, keyName are shown', () => {
    const shown = redactSecrets({ id: 'x', token_type: 'Bearer', password_updated_at: '2024-05-01', key_id: 'k-1', keyName: 'main', secret_santa: 'alice', token: 'tok-0123456789' });
    assert.deepEqual(shown, { id: 'x', token_type: 'Bearer', password_updated_at: '2024-05-01', key_id: 'k-1', keyName: 'main', secret_santa: '***', token: '***' });
    assert.deepEqual(secretsOf({ token_type: 'Bearer', password_updated_at: '2024-05-01', Api_Key: 'ak-0123456789' }), ['ak-0123456789']);
  });

  test('a secret word anywhere in the name: private_key_hex, seed_phrase, pass-word, dsn, access; a URL password in any scheme', () => {
    const raw = {
      id: 'x',
      private_key_hex: 'PRIVKEYSECRET',
      seed_phrase: 'SEEDSECRET',
      'pass-word': 'PWSECRET',
      access: 'ACCESSSECRET',
      access_level: 'admin',
      dsn: 'postgres://u:DSNPASS@db/x',
      backup: 'amqp://rabbit:AMQPPASS@mq:5672/vh, again AMQPPASS',
      cache: 'redis://TOKENASUSER@cache:6379',
    };
    assert.deepEqual(redactSecrets(raw), {
      id: 'x',
      private_key_hex: '***',
      seed_phrase: '***',
      'pass-word': '***',
      access: '***',
      access_level: 'admin',
      dsn: '***',
      backup: 'amqp://rabbit:***@mq:5672/vh, again ***',
      cache: 'redis://***@cache:6379',
    });
  });

  test('a short credential is masked by its field name all the same', () => {
    assert.deepEqual(redactSecrets({ id: 'x', auth_password: 'pw1', details: { auth_key: 'k' } }), { id: 'x', auth_password: '***', details: { auth_key: '***' } });
  });

  test('a secret-named field holding an object is walked: its own credentials are found and masked, the rest shown', () => {
    const raw = { id: 'x', token: { access_token: 'at-0123456789', token_type: 'Bearer', expires_in: 3600 } };
    assert.deepEqual(secretsOf(raw), ['at-0123456789']);
    assert.deepEqual(redactSecrets(raw), { id: 'x', token: { access_token: '***', token_type: 'Bearer', expires_in: 3600 } });
  });

  test('a number under a secret name is a credential (a numeric password); booleans and null are kept', () => {
    const raw = { id: 'x', count: 3, archive: true, creator: null, token: 42, secret: false, password: null, api_key: '' };
    assert.deepEqual(redactSecrets(raw), { ...raw, token: '***' });
    assert.deepEqual(secretsOf(raw), ['42']);
    assert.deepEqual(redactSecrets([1, null, 'plain']), [1, null, 'plain']);
  });
});

describe('maskValues: only the given values masked', () => {
  test('numbers, booleans and null are kept as they are', () => {
    const raw = { id: 'x', count: 3, archive: false, creator: null, list: [1, null, true], note: 'key pk_0123456789' };
    assert.deepEqual(maskValues(raw, ['pk_0123456789']), { id: 'x', count: 3, archive: false, creator: null, list: [1, null, true], note: 'key ***' });
    assert.equal(maskValues(7, ['7']), 7);
    assert.equal(maskValues(null, ['x']), null);
  });
});

describe("object names in the client's messages", () => {
  const apiKey = 'pk_names_0123456789abcdef';
  let api: PlatformServer;
  before(async () => {
    api = await startPlatformServer({ apiKey, data: sampleData({ nodes: 3 }) });
  });
  after(() => api.close());
  beforeEach(() => api.clear());
  const client = () => new PlatformClient({ apiKey, apiUrl: api.url });

  async function messageOf(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
    } catch (err) {
      assert.ok(err instanceof PlatformError, String(err));
      return err.message;
    }
    assert.fail('expected a PlatformError');
  }

  test('an id that cannot be one is refused before sending, naming the kind of object', async () => {
    const rule = 'letters, digits, - and _, starting with a letter or digit, at most 64 characters';
    assert.equal(await messageOf(client().getProject('PR 1')), `"PR 1" is not a project id: ${rule} (e.g. PR-123-456).`);
    assert.equal(await messageOf(client().getNetwork('NW/1')), `"NW/1" is not a network id: ${rule} (e.g. NW-123-456-7).`);
    assert.equal(await messageOf(client().getNode('-ND')), `"-ND" is not a node id: ${rule} (e.g. ND-123-456-789).`);
    assert.equal(await messageOf(client().getIdentity('ID 1')), `"ID 1" is not an identity id: ${rule} (e.g. ID-123-456).`);
    assert.equal(api.requests.length, 0);
  });

  test('a 404 for one object says "No such <object> <id>"', async () => {
    assert.match(await messageOf(client().getProject('PR-999-999')), /^No such project PR-999-999 \(HTTP 404 /);
    assert.match(await messageOf(client().getNetwork('NW-999-999-999')), /^No such network NW-999-999-999 \(HTTP 404 /);
    assert.match(await messageOf(client().getNode('ND-999-999-999')), /^No such node ND-999-999-999 \(HTTP 404 /);
    assert.match(await messageOf(client().getIdentity('ID-999-999')), /^No such identity ID-999-999 \(HTTP 404 /);
  });

  test('nodes can be listed by protocol, from the client and from the CLI', async () => {
    const nodes = await client().listNodes({ protocol: 'bitcoin' });
    assert.ok(nodes.length > 0);
    assert.equal(api.requests[0].url, '/v1/nodes/?protocol=bitcoin');
    api.clear();
    const run = await runMain(['platform', 'nodes', '--protocol', 'bitcoin', '--format', 'json', '--api-url', api.url], { CHAINDECK_API_KEY: apiKey });
    assert.equal(run.code, 0, run.err);
    assert.equal(api.requests[0].url, '/v1/nodes/?protocol=bitcoin');
  });
});
