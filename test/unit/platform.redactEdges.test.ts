/**
 * What the CLI and the editor show of platform objects (secrets.ts) at its edges: which field
 * names count as secrets (by their last word), short and nested credentials, values that are not
 * strings (a number under a secret name masked; booleans and null kept) in redactSecrets and maskValues; and the
 * object names and list filters (types.ts) as users meet them: "is not a project id", "No such
 * network …", and `--protocol` accepted for nodes.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { maskValues, redactSecrets, secretsOf } from '../../src/core/platform/secrets';
import { PlatformClient } from '../../src/core/platform/client';
import { PlatformError } from '../../src/core/platform/errors';
import { runMain } from '../support/cli';
import { sampleData, startPlatformServer, type PlatformServer } from '../support/platformServer';

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
