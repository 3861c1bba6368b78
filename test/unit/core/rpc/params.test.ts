import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RpcFailure } from '../../../../src/core/rpc/failure';
import { lineColumn, locateJsonError, parseParams } from '../../../../src/core/rpc/params';

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

describe('where params text first goes wrong', () => {
  /**
   * Where params text first goes wrong, and what the message says there: one case per rule of the
   * error locator (strings, escapes, numbers, literals, arrays, objects, trailing text), each with its
   * exact offset and problem, and the line/column arithmetic at line ends.
   */
  describe('locateJsonError: the first wrong character and what was expected', () => {
    const cases: [string, number, string][] = [
      ['["a\u0001"]', 3, 'a control character (such as a line break) inside a string'],
      ['["a\nb"]', 3, 'a control character (such as a line break) inside a string'],
      ['["\\u12G4"]', 3, 'a bad \\u escape in a string'],
      ['["\\u123"]', 3, 'a bad \\u escape in a string'],
      ['["\\x"]', 3, 'a bad escape in a string'],
      ['["\\', 3, 'a bad escape in a string'],
      ['["abc', 5, 'a string that is never closed'],
      ['["\\u00e9\\n\\"", 1', 16, "expected ',' or ']' but found the end of the text"],
      ['[-]', 1, "expected a number but found '-'"],
      ['[01]', 2, "expected ',' or ']' but found '1'"],
      ['[1.]', 2, "expected ',' or ']' but found '.'"],
      ['[1e]', 2, "expected ',' or ']' but found 'e'"],
      ['[1.5e+3, 2E-2, -0.25, 9', 23, "expected ',' or ']' but found the end of the text"],
      ['[tru]', 4, "expected 'true' but found ']'"],
      ['[fals', 5, "expected 'false' but found the end of the text"],
      ['[nul1]', 4, "expected 'null' but found '1'"],
      ["['a']", 1, 'a single quote: JSON strings use double quotes'],
      ['[?]', 1, "expected a value (string, number, object, array, true, false or null) but found '?'"],
      ['', 0, 'expected a value (string, number, object, array, true, false or null) but found the end of the text'],
      ['[1 2]', 3, "expected ',' or ']' but found '2'"],
      ['[1,]', 3, "a trailing comma before ']'"],
      ['[1, \n ]', 6, "a trailing comma before ']'"],
      ['{a:1}', 1, "expected a property name in double quotes but found 'a'"],
      ['{"a" 1}', 5, "expected ':' after the property name but found '1'"],
      ['{"a":1 "b":2}', 7, "expected ',' or '}' but found '\"'"],
      ['{"a":1,}', 7, "a trailing comma before '}'"],
      ['{"a":1,\t\r\n}', 10, "a trailing comma before '}'"],
      ['[] x', 3, "expected the end of the text but found 'x'"],
      [' {} \n ', 6, 'invalid JSON'],
      ['[[], {}, {"k": [true, false, null]}]', 36, 'invalid JSON'],
    ];
    for (const [text, offset, problem] of cases) {
      test(JSON.stringify(text), () => assert.deepEqual(locateJsonError(text), { offset, problem }));
    }
  });

  describe('lineColumn', () => {
    test('the newline itself is the end of its line; the next character starts line 2', () => {
      const text = 'ab\ncd\n\nef';
      assert.deepEqual(lineColumn(text, 0), { line: 1, column: 1 });
      assert.deepEqual(lineColumn(text, 2), { line: 1, column: 3 });
      assert.deepEqual(lineColumn(text, 3), { line: 2, column: 1 });
      assert.deepEqual(lineColumn(text, 6), { line: 3, column: 1 });
      assert.deepEqual(lineColumn(text, 7), { line: 4, column: 1 });
      assert.deepEqual(lineColumn(text, 9), { line: 4, column: 3 });
    });
  });

  describe('parseParams messages', () => {
    const message = (text: string) => {
      try {
        parseParams(text);
      } catch (err) {
        assert.ok(err instanceof RpcFailure && err.kind === 'invalid-request', String(err));
        return err.message;
      }
      assert.fail(`accepted ${text}`);
    };
    test('a syntax error names its line, column and position', () => {
      assert.equal(message('[\n  1,\n  ]'), "Params are not valid JSON: a trailing comma before ']' at line 3, column 3 (position 9).");
    });
    test('a scalar names its type, null included', () => {
      assert.equal(message('"0x1"'), 'Params must be a JSON array (positional) or a JSON object (named), not string: for example ["0x1", "latest"].');
      assert.equal(message('null'), 'Params must be a JSON array (positional) or a JSON object (named), not null: for example ["0x1", "latest"].');
      assert.equal(message('7'), 'Params must be a JSON array (positional) or a JSON object (named), not number: for example ["0x1", "latest"].');
    });
    test('blank text is no params', () => {
      assert.deepEqual(parseParams(' \n\t'), []);
    });
  });
});
