import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_HINTS } from '../../../../src/cli/knobs';
import { apiErrorOf, badReplyError, describeApiError, notJsonError, statusError, type ReplyFacts } from '../../../../src/core/platform/errors';
import { normaliseApiUrl } from '../../../../src/core/platform/apiUrl';
import { PlatformClient } from '../../../../src/core/platform/client';
import { PlatformError } from '../../../../src/core/platform/errors';

const API_KEY = 'pk_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const URL_SHOWN = 'https://api.example.com/v1/nodes/';

function reply(status: number, body: unknown, extra: Partial<ReplyFacts> = {}): ReplyFacts {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, statusText: '', text, body: typeof body === 'string' ? undefined : body, ...extra };
}

const apiError = (code: string, message: string, fields?: unknown) => ({ error: { code, message, ...(fields ? { fields } : {}) } });

describe('platform API errors say what to do', () => {
  test('401: the key is wrong or revoked, and how to set a new one', () => {
    const e = statusError(reply(401, apiError('authentication_failed', 'Invalid API key.')), URL_SHOWN, { action: 'list nodes' }, [API_KEY]);
    assert.equal(e.kind, 'auth');
    assert.equal(e.status, 401);
    assert.equal(e.apiCode, 'authentication_failed');
    assert.equal(
      e.message,
      `The platform API did not accept the API key (HTTP 401 from ${URL_SHOWN}: Invalid API key. (authentication_failed)). The key is wrong or was revoked: set a new one with "Chaindeck: Set Platform API Key".`,
    );
    const cli = statusError(reply(401, apiError('x', 'y')), URL_SHOWN, { action: 'list nodes' }, [API_KEY], 'set a new one in the environment variable CHAINDECK_API_KEY');
    assert.match(cli.message, /revoked: set a new one in the environment variable CHAINDECK_API_KEY\.$/);
  });

  test('403: the key may not do this action (role)', () => {
    const e = statusError(reply(403, apiError('permission_denied', 'You do not have permission to perform this action.')), URL_SHOWN, { action: 'list nodes' }, [API_KEY]);
    assert.equal(e.kind, 'forbidden');
    assert.match(
      e.message,
      /^The API key is not allowed to list nodes \(HTTP 403 from .*: You do not have permission to perform this action\. \(permission_denied\)\)\. .*role \(e\.g\. member\)/,
    );
  });

  test('404: no such <object> <id> for a get; a wrong API URL for a list', () => {
    const get = statusError(reply(404, apiError('not_found', 'Not found.')), `${URL_SHOWN}ND-9/`, { action: 'get node ND-9', object: { singular: 'node', id: 'ND-9' } }, [API_KEY]);
    assert.equal(get.kind, 'not-found');
    assert.match(get.message, /^No such node ND-9 \(HTTP 404 from .*ND-9\/: Not found\. \(not_found\)\)\. Check the id/);
    const list = statusError(reply(404, '<html>nope</html>'), URL_SHOWN, { action: 'list nodes' }, [API_KEY], undefined, CLI_HINTS.apiUrl);
    assert.match(list.message, /nothing at https:\/\/api\.example\.com\/v1\/nodes\/ .*Check the platform API URL \(setting chaindeck\.platform\.apiUrl, CLI: --api-url\)/);
  });

  test('429: rate limited, with the Retry-After wait when given', () => {
    const e = statusError(reply(429, apiError('throttled', 'Request was throttled.'), { retryAfterMs: 30_000 }), URL_SHOWN, { action: 'list nodes' }, [API_KEY]);
    assert.equal(e.kind, 'rate-limited');
    assert.equal(e.retryAfterMs, 30_000);
    assert.match(e.message, /rate limiting this key .* It asks to wait 30 s \(Retry-After\); try again after that\.$/);
    const noWait = statusError(reply(429, ''), URL_SHOWN, { action: 'list nodes' }, [API_KEY]);
    assert.match(noWait.message, /\(HTTP 429 from .*: an empty body\)\. Wait a moment and try again\.$/);
  });

  test('5xx: the server failed; other statuses quote the API, fields included', () => {
    const e = statusError(reply(502, '<html><body>Bad gateway</body></html>', { statusText: 'Bad Gateway' }), URL_SHOWN, { action: 'list nodes' }, [API_KEY]);
    assert.equal(e.kind, 'server');
    assert.match(e.message, /^The platform API's server failed \(HTTP 502 Bad Gateway from .*: "<html><body>Bad gateway<\/body><\/html>"\)\. Try again later/);
    const bad = statusError(reply(400, apiError('invalid_parameter', 'Cannot order by "size".', { order_by: ['Choose one of: name, created_at.'] })), URL_SHOWN, { action: 'list nodes' }, [
      API_KEY,
    ]);
    assert.equal(bad.kind, 'http');
    assert.deepEqual(bad.fields, { order_by: ['Choose one of: name, created_at.'] });
    assert.match(bad.message, /refused to list nodes \(HTTP 400 from .*: Cannot order by "size"\. \(invalid_parameter\) \[order_by: Choose one of: name, created_at\.\]\)\.$/);
  });

  test('the API key never appears in a message, even when the API echoes it', () => {
    const e = statusError(reply(401, apiError('authentication_failed', `Invalid token ${API_KEY}`)), `https://api.example.com/v1/nodes/?token=${API_KEY}`, { action: 'list nodes' }, [
      API_KEY,
    ]);
    assert.ok(!e.message.includes(API_KEY), e.message);
    assert.match(e.message, /Invalid token \*\*\*/);
    const nj = notJsonError({ status: 200, contentType: 'text/plain', text: `key=${API_KEY}` }, URL_SHOWN, [API_KEY]);
    assert.ok(!nj.message.includes(API_KEY), nj.message);
  });

  test('non-JSON and not-the-documented-shape replies point at the API URL', () => {
    const e = notJsonError({ status: 200, contentType: 'text/html', text: '<!doctype html><title>Login</title>' }, URL_SHOWN, [API_KEY]);
    assert.equal(e.kind, 'not-json');
    assert.match(
      e.message,
      /^The reply from https:\/\/api\.example\.com\/v1\/nodes\/ is not JSON \(HTTP 200, an HTML page\): "<!doctype html><title>Login<\/title>"\. Check the platform API URL/,
    );
    assert.match(badReplyError(URL_SHOWN, 'object 2 of page 1: the object has no id', []).message, /is not what the platform API sends: object 2 of page 1: the object has no id\./);
  });

  test('the API error text is read from {error}, or a DRF-style {detail}', () => {
    assert.deepEqual(apiErrorOf({ error: { code: 404, message: 'Not found.' } }), { code: '404', message: 'Not found.', fields: undefined });
    assert.deepEqual(apiErrorOf({ detail: 'Invalid page.' }), { message: 'Invalid page.' });
    assert.equal(apiErrorOf('text'), undefined);
    assert.equal(describeApiError(undefined, '  '), 'an empty body');
    assert.equal(describeApiError({ fields: { name: 'required' } }, ''), '[name: required]');
  });
});

describe('what the client refuses before sending', () => {
  test('the API URL: https, or http only to this machine; no credentials or query', () => {
    assert.equal(normaliseApiUrl('https://api.chainstack.com/'), 'https://api.chainstack.com');
    assert.equal(normaliseApiUrl(' http://127.0.0.1:8080/base/ '), 'http://127.0.0.1:8080/base');
    assert.throws(
      () => normaliseApiUrl('http://api.example.com'),
      (e) => e instanceof PlatformError && e.kind === 'invalid-request' && /must use https/.test(e.message),
    );
    assert.throws(() => normaliseApiUrl('api.example.com'), /is not a URL/);
    assert.throws(() => normaliseApiUrl('https://u:p@api.example.com'), /without credentials/);
    assert.equal(normaliseApiUrl('https://api.example.com/base//'), 'https://api.example.com/base', 'every trailing slash goes');
    const refused = (raw: string, message: RegExp) =>
      assert.throws(
        () => normaliseApiUrl(raw),
        (e) => e instanceof PlatformError && e.kind === 'invalid-request' && message.test(e.message),
      );
    refused('api.example.com', /is not a URL/);
    refused('ftp://127.0.0.1/', /must use https/);
    refused('https://u@api.example.com', /without credentials/);
    refused('https://:p@api.example.com', /without credentials/);
    refused('https://api.example.com/?q=1', /without credentials, query/);
  });

  test('each refusal before sending is an invalid request; ids and order_by are quoted without the key', async () => {
    const kindOf = async (call: () => unknown) => {
      try {
        await call();
      } catch (e) {
        assert.ok(e instanceof PlatformError, String(e));
        return [e.kind, e.message.includes(API_KEY)];
      }
      assert.fail('expected a refusal');
    };
    const client = new PlatformClient({ apiKey: API_KEY, apiUrl: 'http://127.0.0.1:9' });
    for (const [what, call] of [
      ['blank key', () => new PlatformClient({ apiKey: ' ' })],
      ['key with a space', () => new PlatformClient({ apiKey: 'pk a' })],
      ['filter not taken', () => client.list('identities', { project: 'PR-1' })],
      ['bad order_by', () => client.listNodes({ order_by: `${API_KEY}!` })],
      ['bad id', () => client.getNode(`${API_KEY}!`)],
      ['bad id filter', () => client.listNodes({ network: `${API_KEY}!` })],
    ] as const) {
      assert.deepEqual(await kindOf(call), ['invalid-request', false], what);
    }
  });

  test('the filters that take ids, and the example id of each kind', async () => {
    const client = new PlatformClient({ apiKey: API_KEY, apiUrl: 'http://127.0.0.1:9' });
    for (const name of ['organization', 'project', 'network'] as const) {
      await assert.rejects(client.listNodes({ [name]: 'not an id' }), new RegExp(`^PlatformError: The ${name} filter takes a ${name} id: letters, digits, - and _, .*, not "not an id"\\.$`));
    }
    await assert.rejects(client.list('identities', { project: 'PR-1' }), /The identities list has no project filter; it takes organization \(and order_by\)\./);
    await assert.rejects(client.list('networks', { network: 'NW-1' }), /it takes organization, project, protocol, status \(and order_by\)\./);
    await assert.rejects(client.getProject(''), /\(e\.g\. PR-123-456\)\.$/);
    await assert.rejects(client.getNetwork(''), /\(e\.g\. NW-123-456-7\)\.$/);
    await assert.rejects(client.getIdentity(''), /\(e\.g\. ID-123-456\)\.$/);
  });

  test('a missing key, a filter a list does not take, a bad order_by or id', async () => {
    assert.throws(() => new PlatformClient({ apiKey: '  ' }), /No platform API key: set a new one with "Chaindeck: Set Platform API Key"\./);
    const client = new PlatformClient({ apiKey: API_KEY, apiUrl: 'http://127.0.0.1:9' });
    await assert.rejects(client.list('projects', { network: 'NW-1' }), /The projects list has no network filter; it takes organization \(and order_by\)\./);
    await assert.rejects(client.listNodes({ order_by: 'name; drop' }), /order_by takes a field name/);
    await assert.rejects(client.getNode(''), /"" is not a node id: letters, digits, - and _, .* \(e\.g\. ND-123-456-789\)/);
    await assert.rejects(client.getNode('ND-1/../x'), /is not a node id/);
  });
});
