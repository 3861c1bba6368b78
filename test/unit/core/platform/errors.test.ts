import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CLI_HINTS } from '../../../../src/cli/knobs';
import { normaliseApiUrl } from '../../../../src/core/platform/apiUrl';
import { PlatformClient } from '../../../../src/core/platform/client';
import { apiErrorOf, badReplyError, describeApiError, notJsonError, PlatformError, statusError, type ReplyFacts } from '../../../../src/core/platform/errors';

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

describe('which reply bodies the words are read from, and 2xx replies that are not JSON', () => {
  /**
   * Platform API error texts (src/core/platform/errors.ts) at the edges the first tests left open:
   * which reply bodies the API's words are read from (`{error: "text"}`, `{detail}`, `{message}`,
   * and only strings), how the API's `fields` are joined, when the body itself is quoted instead,
   * the kind of a 404 and of a 500, and how a 2xx reply that is not JSON is described.
   */
  const API_KEY = 'pk_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
  const URL_SHOWN = 'https://api.example.com/v1/nodes/';
  const CHECK_URL = "Check the platform API URL (setting chaindeck.platform.apiUrl, CLI: --api-url): it is the API's base, e.g. https://api.chainstack.com.";

  function reply(status: number, body: unknown): ReplyFacts {
    return { status, statusText: '', text: JSON.stringify(body), body };
  }

  describe('the API error text is read from the reply body', () => {
    test('{error: {code, message}} takes only a string or number code and a string message', () => {
      assert.deepEqual(apiErrorOf({ error: { code: { nested: 1 }, message: 5 } }), { code: undefined, message: undefined, fields: undefined });
      assert.deepEqual(apiErrorOf({ error: { code: null, message: 'Not found.' } }), { code: undefined, message: 'Not found.', fields: undefined });
    });

    test('{error: "text"}, {detail: "text"} and {message: "text"} are the message', () => {
      assert.deepEqual(apiErrorOf({ error: 'Invalid API key.' }), { message: 'Invalid API key.' });
      assert.deepEqual(apiErrorOf({ detail: 'Invalid page.' }), { message: 'Invalid page.' });
      assert.deepEqual(apiErrorOf({ message: 'Rate limit exceeded.' }), { message: 'Rate limit exceeded.' });
    });

    test('a detail or message that is not a string is not the message', () => {
      assert.deepEqual(apiErrorOf({ detail: 5, message: 'From message.' }), { message: 'From message.' });
      assert.equal(apiErrorOf({ detail: 5 }), undefined);
      assert.equal(apiErrorOf({ message: 5 }), undefined);
      assert.equal(apiErrorOf({ error: 5 }), undefined);
    });
  });

  describe("the API's words in a message", () => {
    test('a message without a code is quoted alone', () => {
      assert.equal(describeApiError({ message: 'Not found.' }, '{"detail":"Not found."}'), 'Not found.');
      const e = statusError(reply(404, { detail: 'Not found.' }), URL_SHOWN, { action: 'get node ND-9', object: { singular: 'node', id: 'ND-9' } }, [API_KEY]);
      assert.equal(e.message, `No such node ND-9 (HTTP 404 from ${URL_SHOWN}: Not found.). Check the id: it may have been deleted, or belong to another organization.`);
    });

    test('an {error} with nothing in it quotes the body instead', () => {
      const e = statusError(reply(400, { error: {} }), URL_SHOWN, { action: 'list nodes' }, [API_KEY]);
      assert.equal(e.message, `The platform API refused to list nodes (HTTP 400 from ${URL_SHOWN}: "{\\"error\\":{}}").`);
    });

    test('fields are "name: why" joined by "; ", a list of reasons by spaces, other values as JSON', () => {
      assert.equal(
        describeApiError({ code: 'invalid', fields: { name: ['Required.', 'Too short.'], size: { max: 10 }, region: 'Unknown region.' } }, ''),
        '(invalid) [name: Required. Too short.; size: {"max":10}; region: Unknown region.]',
      );
    });
  });

  describe('status kinds', () => {
    test('a 404 of a list is not-found, and names the API URL to check', () => {
      const e = statusError(reply(404, { detail: 'Not found.' }), URL_SHOWN, { action: 'list nodes' }, [API_KEY], undefined, CLI_HINTS.apiUrl);
      assert.equal(e.kind, 'not-found');
      assert.equal(e.message, `The platform API has nothing at ${URL_SHOWN} (HTTP 404 from ${URL_SHOWN}: Not found.). ${CHECK_URL}`);
    });

    test('HTTP 500 itself is a server failure', () => {
      const e = statusError(reply(500, { detail: 'Internal error.' }), URL_SHOWN, { action: 'list nodes' }, [API_KEY]);
      assert.equal(e.kind, 'server');
      assert.equal(e.status, 500);
      assert.match(e.message, /^The platform API's server failed \(HTTP 500 from .*: Internal error\.\)\. Try again later; if it persists, check the provider's status page\.$/);
    });
  });

  describe('a 2xx reply that is not JSON', () => {
    const what = (contentType: string, text: string) => {
      const m = /is not JSON \(HTTP 200, (.*?)\): /.exec(notJsonError({ status: 200, contentType, text }, URL_SHOWN, [API_KEY]).message);
      assert.ok(m);
      return m[1];
    };

    test('an HTML content type is an HTML page, whatever the text starts with', () => {
      assert.equal(what('text/html; charset=utf-8', 'Service unavailable'), 'an HTML page');
    });

    test('text starting with "<" (after blanks) is an HTML page, whatever the content type', () => {
      assert.equal(what('', '<html><body>Login</body></html>'), 'an HTML page');
      assert.equal(what('text/plain', '\n  <!doctype html>'), 'an HTML page');
    });

    test('other text is named by its content type, or "no content type"', () => {
      assert.equal(what('text/plain', 'hello'), 'text/plain');
      assert.equal(what('', 'error: a<b'), 'no content type');
      assert.equal(what('', 'upstream<error>'), 'no content type');
    });

    test('the whole message: status, what it is, the start of the body, the API URL to check; the status is kept', () => {
      const e = notJsonError({ status: 200, contentType: '', text: 'upstream<error>' }, URL_SHOWN, [API_KEY], CLI_HINTS.apiUrl);
      assert.equal(e.kind, 'not-json');
      assert.equal(e.status, 200);
      assert.equal(e.message, `The reply from ${URL_SHOWN} is not JSON (HTTP 200, no content type): "upstream<error>". ${CHECK_URL}`);
    });

    test('an empty or blank body is "an empty body"', () => {
      assert.match(notJsonError({ status: 204, contentType: 'text/plain', text: '' }, URL_SHOWN, [API_KEY]).message, /\(HTTP 204, text\/plain\): an empty body\. Check/);
      assert.match(notJsonError({ status: 200, contentType: 'text/plain', text: ' \n ' }, URL_SHOWN, [API_KEY]).message, /\(HTTP 200, text\/plain\): an empty body\. Check/);
    });
  });
});
