import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertGrowsLinearly } from '../../support/growth';
import { inertJson, inertLine, inertText } from '../../../src/core/inert';
import { networkFailure } from '../../../src/core/rpc/failure';
import { parseManifest, parseWithYaml } from '../../../src/core/subgraph/manifest/manifestDoc';
import { flattenFields } from '../../../src/core/subgraph/query/flatten';
import { rangeTable } from '../../../src/core/storage/table';

/** Any character a terminal acts on: C0 but tab and LF, DEL, C1, bidi controls. */
// eslint-disable-next-line no-control-regex -- the test looks for exactly these
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

test('CSI, OSC (title, hyperlink), BEL, NUL and lone ESC are stripped; the words stay', () => {
  const hostile = 'execution reverted\x1b[2J\x1b[H\x1b[31;1mred\x1b[0m \x1b]0;pwned title\x07 \x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ bell\x07 nul\x00 esc\x1b';
  const shown = inertText(hostile);
  assert.doesNotMatch(shown, ACTIVE);
  assert.equal(shown, 'execution revertedred  click bell nul esc');
});

test('tab and LF stay; CRLF becomes LF; a lone CR (which overwrites the line) is dropped', () => {
  assert.equal(inertText('a\tb\r\nc\rd\n'), 'a\tb\ncd\n');
});

test('C1 controls (8-bit CSI U+009B) and bidi overrides are stripped', () => {
  const shown = inertText('pay \u202eexe.txt\u202c to \u2066x\u2069 \u009b2J done \u0085');
  assert.doesNotMatch(shown, ACTIVE);
  assert.equal(shown, 'pay exe.txt to x 2J done ');
});

test('plain text, Unicode and emoji pass unchanged', () => {
  const text = 'Größe 10 €, 块 🚀 — “quoted” [ok] {json: 1}';
  assert.equal(inertText(text), text);
});

test('linear: a megabyte of escape fragments is cleaned in time linear in its size', () => {
  const fragments = (n: number) => '\x1b['.repeat(n) + '\x1b]'.repeat(n) + 'end';
  assert.doesNotMatch(inertText(fragments(200_000)), ACTIVE);
  assertGrowsLinearly((n) => inertText(fragments(n)), 5000, 200_000);
});

test('inertJson: parses back to the same value, with nothing a terminal acts on', () => {
  const value = { message: 'a\x1b[2Jb\x07c\x00d\u009be\u202ef\u2028g', n: 1 };
  const text = inertJson(value);
  assert.doesNotMatch(text, ACTIVE);
  assert.doesNotMatch(text, /[\u2028\u2029]/);
  assert.deepEqual(JSON.parse(text), value);
  assert.match(text, /\\u001b\[2J/, 'JSON.stringify escapes C0 as \\u001b');
  assert.match(text, /\\u009b/);
});

describe('where text from outside is shown', () => {
  test('GraphQL result tables: cells and column names hold no control sequence', () => {
    const [table] = flattenFields({ tokens: [{ id: '1', ['name\x1b[31m']: 'Evil\x1b]0;t\x07\u202eToken', meta: { note: 'a\x00b' } }] });
    assert.deepEqual(
      table.columns.map((c) => c.id),
      ['id', 'name', 'meta.note'],
    );
    assert.deepEqual(table.rows, [['1', 'EvilToken', 'ab']]);
  });

  test("storage tables: a native node's hostile preimage key is inert in its cell", () => {
    const table = rangeTable({ mode: 'native', storage: { '0xabc': { key: '0x01\x1b[2J\x07', value: `0x${'00'.repeat(31)}2a` } } });
    for (const cell of table.rows[0]) assert.doesNotMatch(cell, ACTIVE);
    assert.ok(table.rows[0].includes('0x01'));
  });

  test("yaml's parser-internal messages are said in our words", () => {
    const { problems } = parseWithYaml('specVersion: 1.0.0\nschema:\n\tfile: ./schema.graphql\n');
    assert.ok(problems.length > 0);
    assert.ok(
      problems.some((p) => p.message === 'Tabs cannot indent YAML: use spaces.'),
      JSON.stringify(problems),
    );
    // Duplicates are found after parsing, in our words, on whichever parser's tree.
    const duplicate = parseManifest('a: &x 1\na: 2\n').problems;
    assert.deepEqual(
      duplicate.map((p) => [p.code, p.message]),
      [['duplicate-key', "Duplicate key 'a': already set on line 1; keys of a map must be unique"]],
    );
  });

  test("Node's own words for an unknown network error are replaced by ours", () => {
    const err = Object.assign(new Error('socket hang up'), { code: 'ERR_SOMETHING_NEW' });
    const problem = networkFailure(err, { url: 'http://127.0.0.1:9/', auth: 'none', secrets: [], timeoutMs: 1000 });
    assert.equal(problem.message, 'Cannot reach the node at http://127.0.0.1:9/: the connection failed (ERR_SOMETHING_NEW). Check the URL, your network, and that the node is running.');
  });
});

test('escape sequences cut short or without intermediates go whole', () => {
  assert.equal(inertText('a\x1b[12'), 'a', 'a CSI without its final byte');
  assert.equal(inertText('x\x1b]0;title\nnext'), 'x\nnext', 'an OSC without BEL or ST ends at the line end');
  assert.equal(inertText('a\x1b7b'), 'ab', 'ESC 7 (save cursor): no intermediate byte');
  assert.equal(inertText('a\x1b(Bb'), 'ab', 'ESC ( B: one intermediate byte');
  assert.equal(inertText('a\x1b '), 'a', 'an escape cut short after its intermediate byte');
});

test('inertJson of undefined is null, as JSON.stringify would write it inside an array', () => {
  assert.equal(inertJson(undefined), 'null');
});

test('inertLine: every line break becomes visible (\\n, a lone CR \\r, the others \\uXXXX), so outside text stays on its line', () => {
  assert.equal(inertLine('a\nb\r\nc\rd\u2028e\u2029f\u0085g\vh\fi'), 'a\\nb\\nc\\rd\\u2028e\\u2029f\\u0085g\\u000bh\\u000ci');
  assert.equal(inertLine('bad value\n::error file=x.ts,line=1::forged'), 'bad value\\n::error file=x.ts,line=1::forged');
  assert.equal(inertLine('tab\tstays \x1b[31mred\x1b[0m'), 'tab\tstays red');
  assert.equal(inertLine('x\x1b]0;title\x07\n\x9b2J'), 'x\\n2J');
});

test('inertLine: an unterminated escape ends at its own line break, so the lines after it are kept', () => {
  assert.equal(inertLine('x\x1b]0;title\nsecond line'), 'x\\nsecond line');
});
