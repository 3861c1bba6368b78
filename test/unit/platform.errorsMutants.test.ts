/**
 * Platform API error texts (src/core/platform/errors.ts) at the edges the first tests left open:
 * which reply bodies the API's words are read from (`{error: "text"}`, `{detail}`, `{message}`,
 * and only strings), how the API's `fields` are joined, when the body itself is quoted instead,
 * the kind of a 404 and of a 500, and how a 2xx reply that is not JSON is described.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiErrorOf, describeApiError, notJsonError, statusError, type ReplyFacts } from '../../src/core/platform/errors';
import { CLI_HINTS } from '../../src/cli/knobs';

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
