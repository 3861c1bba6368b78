/**
 * The pieces every command is made of: readArgs (node:util parseArgs plus one walk in our words)
 * at the edges the command suites reach only in part, and the one help layout every command's
 * usage follows.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readArgs, UsageError, type ArgRules, type OptionTable } from '../../../src/cli/args';
import { commands } from '../../../src/cli/commands';
import { SUBGRAPH_ACTIONS } from '../../../src/cli/subgraph/subgraph';

const options = {
  url: { type: 'string', help: 'u' },
  rpc: { type: 'string', aliasOf: 'url' },
  json: { type: 'boolean', help: 'j' },
} satisfies OptionTable;

const read = (args: string[], rules: Partial<ArgRules<typeof options>> = {}) => readArgs(args, { options, ...rules });

function refused(args: string[], message: string, rules: Partial<ArgRules<typeof options>> = {}): void {
  assert.throws(
    () => read(args, rules),
    (err: unknown) => err instanceof UsageError && err.message === message,
    JSON.stringify(args),
  );
}

describe('readArgs', () => {
  test('a value after a space or after =, whatever it starts with; the last one given wins, an alias included', () => {
    assert.deepEqual(read(['--url', '-5']).values, { url: '-5' });
    assert.deepEqual(read(['--url', '--']).values, { url: '--' });
    assert.deepEqual(read(['--url=a=b', '--json']).values, { url: 'a=b', json: true });
    assert.deepEqual(read(['--url', 'a', '--url=']).values, { url: '' });
    assert.deepEqual(read(['--url', 'a', '--rpc', 'b']).values, { url: 'b' });
    assert.deepEqual(read(['--rpc', 'b', '--url', 'a']).values, { url: 'a' });
  });

  test('a word with a single - is an argument, as typed (no one-letter options exist)', () => {
    assert.deepEqual(read(['-5', '-ND-1', '-abc', '-a=b', '-', 'x']).positionals, ['-5', '-ND-1', '-abc', '-a=b', '-', 'x']);
    assert.deepEqual(read(['--url', '-ND-1', '-ND-1']), { values: { url: '-ND-1' }, positionals: ['-ND-1'] });
  });

  test('-- ends the options where the command says so; elsewhere it is an unknown option', () => {
    assert.deepEqual(read(['a', '--', '--url', 'b', '-c'], { endOfOptions: true }), { values: {}, positionals: ['a', '--url', 'b', '-c'] });
    refused(['a', '--', 'b'], 'unknown option --');
  });

  test('unknown options are named without their value; a switch given a value is unknown too', () => {
    refused(['--bogus=1'], 'unknown option --bogus');
    refused(['--=x'], 'unknown option --');
    refused(['---x'], 'unknown option ---x');
    refused(['--json=yes'], 'unknown option --json');
    refused(['--URL', 'x'], 'unknown option --URL');
  });

  test('an option named like an Object.prototype property is unknown, refused names or not', () => {
    for (const rules of [{}, { refused: { password: 'no password' } }]) {
      refused(['--toString', 'x'], 'unknown option --toString', rules);
      refused(['--constructor=1'], 'unknown option --constructor', rules);
      refused(['--__proto__'], 'unknown option --__proto__', rules);
      refused(['--hasOwnProperty'], 'unknown option --hasOwnProperty', rules);
    }
    refused(['--password=x'], 'no password', { refused: { password: 'no password' } });
  });

  test('dashedWordsAreOptions: every word with a - is an option, an unknown one named whole', () => {
    refused(['--bogus=1'], 'unknown option --bogus=1', { dashedWordsAreOptions: true });
    refused(['x', '-q'], 'unknown option -q', { dashedWordsAreOptions: true });
    assert.deepEqual(read(['-', '--url', '-q'], { dashedWordsAreOptions: true }), { values: { url: '-q' }, positionals: ['-'] });
  });

  test('a value is needed; with noOptionAsValue, one after a space may not start with --', () => {
    refused(['--url'], '--url needs a value');
    refused(['--rpc'], '--rpc needs a value');
    refused(['--url', '--json'], '--url needs a value', { noOptionAsValue: true });
    assert.deepEqual(read(['--url=--json', '--url', '-x'], { noOptionAsValue: true }).values, { url: '-x' });
  });

  test('the first problem in word order wins: refused options, arguments refused, a check where the option stands', () => {
    refused(['--secret=1', '--bogus'], 'no secrets', { refused: { secret: 'no secrets' } });
    refused(['--bogus', '--secret'], 'unknown option --bogus', { refused: { secret: 'no secrets' } });
    refused(['--json', 'x', '--bogus'], "no argument 'x'", { refuseArgument: (word) => `no argument '${word}'` });
    const checked = { url: { type: 'string', check: (v: string | undefined) => assert.equal(v, undefined) } } satisfies OptionTable;
    assert.deepEqual(readArgs(['--url'], { options: checked }).values, { url: undefined });
  });
});

describe('the help of every command', () => {
  // A command of actions (subgraph) lists them; each action's help is a command's.
  for (const command of commands.flatMap((c) => (c.name === 'subgraph' ? SUBGRAPH_ACTIONS : [c]))) {
    test(`${command.name}: usage, summary, then tables whose texts start in one column, exit statuses 0, 1 and 2`, () => {
      const [usage, summary, ...sections] = command.usage.trimEnd().split('\n\n');
      assert.match(usage, new RegExp(`^Usage: chaindeck ${command.name} `));
      assert.ok(summary.startsWith(`${command.summary}.`), summary);
      const titles = sections.map((s) => s.split('\n')[0]).filter((t) => t.endsWith(':'));
      assert.deepEqual(
        titles.filter((t) => ['Options:', 'Exit status:'].includes(t)),
        ['Options:', 'Exit status:'],
      );
      // Where a line's text starts: after its term and two or more spaces, or its indentation.
      const textColumn = (line: string) => /^ {2}\S+(?: \S+)*? {2,}/.exec(line)?.[0].length ?? line.search(/\S/);
      const tables = sections.filter((s) => /^(Arguments|Options|Exit status):\n/.test(s));
      const starts = new Set(tables.flatMap((s) => s.split('\n').slice(1).map(textColumn)));
      assert.equal(starts.size, 1, `one column: ${[...starts]}`);
      assert.match(command.usage, /\n {2}--help, -h {2,}print this help and exit\n/);
      assert.match(command.usage, /\nExit status:\n {2}0 +\S[^\n]*\n(?: +[^\n]*\n)* {2}1 +\S[^\n]*\n(?: +[^\n]*\n)* {2}2 +a usage error/);
    });
  }
});
