/**
 * A node's health in one line (health.ts): commonFailure says a node failed only when every fact
 * it has failed, skipping facts never asked, and says each distinct error once; shortError keeps
 * the first sentence of the first line, trimmed, and cuts it with … only beyond `max` characters.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commonFailure, shortError } from '../../../../src/core/nodes/health';

test('commonFailure: every fact failed gives the distinct errors once, in order', () => {
  assert.equal(
    commonFailure({ clientVersion: { error: 'connect ECONNREFUSED' }, latestBlock: { error: 'connect ECONNREFUSED' }, chainId: { error: 'timeout' } }),
    'connect ECONNREFUSED; timeout',
  );
});

test('commonFailure: a fact that was not asked (undefined) is skipped, not taken for a failure or a crash', () => {
  assert.equal(commonFailure({ clientVersion: { error: 'HTTP 401' }, latestBlock: undefined, chainId: undefined }), 'HTTP 401');
  assert.equal(commonFailure({ clientVersion: undefined }), undefined);
  assert.equal(commonFailure({ clientVersion: { error: 'HTTP 401' }, latestBlock: { value: '1', raw: '0x1' } }), undefined, 'one fact answered: the node is not failing');
});

test('shortError: the first sentence of the first line, with blanks around it trimmed', () => {
  assert.equal(shortError('  Connection refused. Is the node running?\nstack…'), 'Connection refused.');
  assert.equal(shortError('\tHTTP 401 Unauthorized  \nmore'), 'HTTP 401 Unauthorized');
});

test('shortError: a carriage return or line separator inside the first line does not keep the rest of it', () => {
  assert.equal(shortError('Bad gateway. Retry\rlater'), 'Bad gateway.');
  assert.equal(shortError('Bad gateway. Retry\u2028later'), 'Bad gateway.');
});

test('shortError: exactly `max` characters are kept whole; one more is cut to max with …', () => {
  const ninety = 'x'.repeat(90);
  assert.equal(shortError(ninety), ninety);
  assert.equal(shortError(`${ninety}y`), `${'x'.repeat(89)}…`);
  assert.equal(shortError('abcdef', 6), 'abcdef');
  assert.equal(shortError('abcdefg', 6), 'abcde…');
});

test('a node whose every fact failed has one failure; a node that answered some has none', () => {
  const refused = 'Cannot reach the node at http://127.0.0.1:9: connection refused (ECONNREFUSED). Is the node running, and are the host and port right?';
  assert.equal(commonFailure({ clientVersion: { error: refused }, latestBlock: { error: refused }, chainId: { error: refused } }), refused);
  assert.equal(commonFailure({ clientVersion: { error: 'a' }, chainId: { error: 'b' } }), 'a; b');
  assert.equal(commonFailure({ clientVersion: { error: 'Method not found' }, latestBlock: { value: '1', raw: '0x1' } }), undefined);
  assert.equal(commonFailure({}), undefined, 'a protocol without facts is not failing');
  assert.equal(shortError(refused), 'Cannot reach the node at http://127.0.0.1:9: connection refused (ECONNREFUSED).');
  assert.equal(shortError(`${'x'.repeat(200)}\nsecond line`).length, 90);
});
