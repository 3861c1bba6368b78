import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RpcFailure } from '../../../../src/core/rpc/failure';
import { locateJsonError, parseParams } from '../../../../src/core/rpc/params';

test('arrays, objects and empty text are params', () => {
  assert.deepEqual(parseParams('["0x1", "latest"]'), ['0x1', 'latest']);
  assert.deepEqual(parseParams('{"block": "latest"}'), { block: 'latest' });
  assert.deepEqual(parseParams('   '), []);
  assert.deepEqual(parseParams('[]'), []);
});

test('JSON that is not an array or object is refused before sending', () => {
  for (const [text, word] of [
    ['42', 'number'],
    ['"latest"', 'string'],
    ['null', 'null'],
    ['true', 'boolean'],
  ]) {
    assert.throws(
      () => parseParams(text),
      (err: unknown) => err instanceof RpcFailure && err.kind === 'invalid-request' && err.message.includes('must be a JSON array') && err.message.includes(`not ${word}`),
      text,
    );
  }
});

test('a syntax error is reported at its line and column', () => {
  const cases: [string, RegExp][] = [
    ['[1,}', /expected a value .* but found '\}' at line 1, column 4 \(position 3\)/],
    ['[1, 2', /found the end of the text at line 1, column 6/],
    ['[\n  "0x1",\n  latest\n]', /found 'l' at line 3, column 3 \(position 13\)/],
    ['{"a" 1}', /expected ':' after the property name but found '1' at line 1, column 6/],
    ["['0x1']", /single quote: JSON strings use double quotes at line 1, column 2/],
    ['[1,2,]', /trailing comma before '\]' at line 1, column 6/],
    ['{a: 1}', /expected a property name in double quotes but found 'a' at line 1, column 2/],
    ['[1] 2', /expected the end of the text but found '2' at line 1, column 5/],
    ['["abc', /string that is never closed/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseParams(text),
      (err: unknown) => err instanceof RpcFailure && err.kind === 'invalid-request' && message.test(err.message),
      `${JSON.stringify(text)} → ${(() => {
        try {
          parseParams(text);
          return 'no error';
        } catch (e) {
          return (e as Error).message;
        }
      })()}`,
    );
  }
});

test('the locator agrees with JSON.parse where JSON.parse gives a position', () => {
  // V8 names the position for some errors: both must point at the same character.
  for (const text of ['[1, 2', '{"a" 1}', '{a:1}']) {
    const v8 = (() => {
      try {
        JSON.parse(text);
      } catch (e) {
        return Number(/position (\d+)/.exec((e as Error).message)?.[1]);
      }
      return NaN;
    })();
    assert.equal(locateJsonError(text).offset, v8, text);
  }
});

const paramsError = (text: string): string => {
  try {
    parseParams(text);
  } catch (err) {
    assert.ok(err instanceof RpcFailure && err.kind === 'invalid-request', String(err));
    return err.message;
  }
  assert.fail(`no error for ${text}`);
};

test('a params syntax error is reported where it is, past spaces in strings and exponents in numbers', () => {
  assert.equal(paramsError('{"a b": 1,}'), "Params are not valid JSON: a trailing comma before '}' at line 1, column 11 (position 10).");
  assert.equal(paramsError('[1e5, ]'), "Params are not valid JSON: a trailing comma before ']' at line 1, column 7 (position 6).");
  assert.equal(paramsError('[1e10, ]'), "Params are not valid JSON: a trailing comma before ']' at line 1, column 8 (position 7).");
  assert.equal(paramsError('[1E+2, 2.5e-3, ]'), "Params are not valid JSON: a trailing comma before ']' at line 1, column 16 (position 15).");
  assert.equal(paramsError('[-, 1]'), "Params are not valid JSON: expected a number but found '-' at line 1, column 2 (position 1).");
});
