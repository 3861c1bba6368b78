/**
 * Params as the user types them (in the "Call Method…" box, a request file or the CLI): JSON that
 * must be an array or an object. A syntax error is reported with its line and column, which
 * JSON.parse's own messages do not always give.
 */
import { MAX_JSON_DEPTH, tooDeepAt } from '../json';
import { failure } from './failure';
import type { Params } from './client';

/**
 * Parses params text; empty text means no params. Throws RpcFailure kind 'invalid-request', its
 * message naming the text as `noun` (the CLI's batch of calls is parsed here too).
 */
export function parseParams(text: string, noun = 'Params'): Params {
  if (!text.trim()) return [];
  const deep = tooDeepAt(text, MAX_JSON_DEPTH.params);
  if (deep !== -1) {
    const { line, column } = lineColumn(text, deep);
    throw failure(
      'invalid-request',
      `${noun} are nested more than ${MAX_JSON_DEPTH.params} levels deep at line ${line}, column ${column} (position ${deep}): no JSON-RPC method takes that.`,
      { secrets: [] },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const { offset, problem } = locateJsonError(text);
    const { line, column } = lineColumn(text, offset);
    throw failure('invalid-request', `${noun} are not valid JSON: ${problem} at line ${line}, column ${column} (position ${offset}).`, { secrets: [] });
  }
  if (typeof value !== 'object' || value === null) {
    throw failure('invalid-request', `Params must be a JSON array (positional) or a JSON object (named), not ${value === null ? 'null' : typeof value}: for example ["0x1", "latest"].`, {
      secrets: [],
    });
  }
  return value as Params;
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Finds where JSON text first goes wrong and what was expected there. Only called after
 * JSON.parse has failed, to turn its message into a position the user can go to.
 */
export function locateJsonError(text: string): { offset: number; problem: string } {
  let i = 0;
  class Stop {
    constructor(readonly problem: string) {}
  }
  const found = () => (i >= text.length ? 'the end of the text' : `'${text[i]}'`);
  const expect = (what: string): never => {
    throw new Stop(`expected ${what} but found ${found()}`);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) expect(`'${word}'`);
      i++;
    }
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] < ' ') throw new Stop('a control character (such as a line break) inside a string');
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) throw new Stop('a bad \\u escape in a string');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) {
          throw new Stop('a bad escape in a string');
        }
      }
      i++;
    }
    if (i >= text.length) throw new Stop('a string that is never closed');
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) expect('a number');
    i += m![0].length;
  };
  const value = (): void => {
    space();
    const ch = text[i];
    if (ch === '{') return object();
    if (ch === '[') return array();
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch >= '0' && ch <= '9')) return number();
    if (ch === "'") throw new Stop('a single quote: JSON strings use double quotes');
    expect('a value (string, number, object, array, true, false or null)');
  };
  const array = () => {
    i++;
    space();
    if (text[i] === ']') return void i++;
    for (;;) {
      value();
      space();
      if (text[i] === ']') return void i++;
      if (text[i] !== ',') expect("',' or ']'");
      i++;
      space();
      if (text[i] === ']') throw new Stop("a trailing comma before ']'");
    }
  };
  const object = () => {
    i++;
    space();
    if (text[i] === '}') return void i++;
    for (;;) {
      space();
      if (text[i] !== '"') expect('a property name in double quotes');
      string();
      space();
      if (text[i] !== ':') expect("':' after the property name");
      i++;
      value();
      space();
      if (text[i] === '}') return void i++;
      if (text[i] !== ',') expect("',' or '}'");
      i++;
      space();
      if (text[i] === '}') throw new Stop("a trailing comma before '}'");
    }
  };
  try {
    value();
    space();
    if (i < text.length) expect('the end of the text');
    return { offset: i, problem: 'invalid JSON' };
  } catch (stop) {
    if (stop instanceof Stop) return { offset: i, problem: stop.problem };
    throw stop;
  }
}
