import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { maskValues, redactSecrets, secretsOf } from '../../../../src/core/platform/secrets';
import { parseObject } from '../../../../src/core/platform/parse';
import { renderTable } from '../../../../src/cli/platform';
import type { CliIO } from '../../../../src/cli/command';
import { main } from '../../../../src/cli/main';

const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';
const PASSWORD = 'pw-Zq8!long';

const raw = {
  id: 'ND-1',
  name: 'n',
  details: {
    https_endpoint: `https://nd-1.p2pify.com/${KEY}`,
    wss_endpoint: `wss://ws-nd-1.p2pify.com/${KEY}`,
    auth_key: KEY,
    auth_username: 'alice',
    auth_password: PASSWORD,
    graphql_token: 'gq-unknown-field-0001',
    token_type: 'Bearer',
  },
  notes: `copied from https://nd-1.p2pify.com/${KEY} by alice, password ${PASSWORD}`,
  integrations: [{ token: 'tok-123456' }],
};

describe('platform objects are shown without credentials', () => {
  test('secretsOf finds values of secret-named fields at any depth', () => {
    assert.deepEqual(secretsOf(raw).sort(), [KEY, PASSWORD, 'gq-unknown-field-0001', 'tok-123456'].sort());
  });

  test('redactSecrets masks those fields, the keys in endpoints, and their values anywhere', () => {
    const shown = redactSecrets(parseObject('nodes', raw));
    const text = JSON.stringify(shown);
    for (const s of [KEY, PASSWORD, 'gq-unknown-field-0001', 'tok-123456']) assert.ok(!text.includes(s), `${s} shown: ${text}`);
    assert.equal(shown.details?.auth_key, '***');
    assert.equal(shown.details?.auth_password, '***');
    assert.equal(shown.details?.auth_username, 'alice', 'a username is not a secret');
    assert.equal(shown.details?.https_endpoint, 'https://nd-1.p2pify.com/***');
    assert.equal(shown.details?.extra.graphql_token, '***', 'a field the schema does not know, masked by its name');
    assert.equal(shown.details?.extra.token_type, 'Bearer', 'a fact about a token is no secret');
    assert.equal(shown.id, 'ND-1');
  });

  test('redactSecrets masks extra values too (the API key); maskValues masks only those', () => {
    const apiKey = 'pk_abcdefgh12345678';
    assert.deepEqual(redactSecrets({ id: 'x', echo: `key ${apiKey}` }, [apiKey]), { id: 'x', echo: 'key ***' });
    const shown = maskValues(raw, [apiKey, 'alice']);
    assert.equal(shown.details.auth_key, KEY, 'credentials stay when they are asked for');
    assert.equal(shown.details.auth_username, '***');
    assert.equal(shown.notes.includes('by ***,'), true);
  });
});

describe('the CLI table and arguments', () => {
  test('columns are aligned to the widest cell, with no trailing spaces', () => {
    const text = renderTable(
      [
        { title: 'ID', cell: (r: { id: string; n?: string }) => r.id },
        { title: 'NAME', cell: (r: { id: string; n?: string }) => r.n },
        { title: 'X', cell: () => 'x' },
      ],
      [{ id: 'ND-1', n: 'a long name' }, { id: 'ND-22' }],
    );
    assert.equal(text, 'ID     NAME         X\nND-1   a long name  x\nND-22               x\n');
  });

  function io(env: NodeJS.ProcessEnv = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const cli: CliIO = { out: (t) => void out.push(t), err: (t) => void err.push(t), env };
    return { cli, out, err };
  }

  test('usage errors exit 2 before any request, and name the problem', async () => {
    const cases: [string[], RegExp][] = [
      [['platform'], /name what to list: organization, projects, networks, nodes, identities/],
      [['platform', 'servers'], /unknown object 'servers'/],
      [['platform', 'nodes', '--format', 'yaml'], /--format is table or json, not 'yaml'/],
      [['platform', 'nodes', '--timeout', '0'], /--timeout needs a whole number of milliseconds from 1 to 86400000/],
      [['platform', 'projects', '--status', 'running'], /projects cannot be filtered by --status; projects take --organization/],
      [['platform', 'nodes', 'ND-1', '--project', 'PR-1'], /--project filters a list; it does not apply to one object by ID/],
      [['platform', 'organization', 'RG-1'], /organization takes no ID/],
      [['platform', 'nodes', '--api-key', 'x'], /--api-key is not accepted.*CHAINDECK_API_KEY/],
      [['platform', 'nodes', '--bogus'], /unknown option --bogus/],
      [['platform', 'nodes', '--project'], /--project needs a value/],
    ];
    for (const [argv, message] of cases) {
      const t = io({ CHAINDECK_API_KEY: 'k-12345678' });
      assert.equal(await main(argv, t.cli), 2, argv.join(' '));
      assert.match(t.err.join(''), message);
      assert.match(t.err.join(''), /Usage: chaindeck platform/);
    }
  });

  test('no API key in the environment: exit 1, saying which variable to set', async () => {
    const t = io({});
    assert.equal(await main(['platform', 'nodes'], t.cli), 1);
    assert.match(t.err.join(''), /^chaindeck platform: no API key: set the environment variable CHAINDECK_API_KEY/);
    assert.deepEqual(t.out, []);
  });

  test('the platform command is listed in the help', async () => {
    const t = io();
    await main(['--help'], t.cli);
    assert.match(t.out.join(''), /platform\s+List the organization, projects, networks, nodes or identities/);
  });
});
