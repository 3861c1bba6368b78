/**
 * `chaindeck platform` at the size of a large organization, and credentials where the schema does
 * not expect them: the cost of masking grows with the output, not with the output times the
 * number of secrets in it (1,000 nodes took 40 s of CPU, 2,500 took 226 s), and a credential
 * is masked by the name of its field, known or not, and where a short one stands whole.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeIdleConnections } from '../../../src/core/rpc/http';
import { runMain } from '../../support/cli';
import { assertGrowsLinearlyAsync } from '../../support/growth';
import { sampleData, sampleKey, startPlatformServer, type PlatformServer } from '../../support/platformServer';

const apiKey = 'pk_scale_0123456789abcdef';

describe('platform nodes: time grows linearly with the number of nodes', () => {
  const servers: PlatformServer[] = [];
  after(async () => {
    closeIdleConnections();
    await Promise.all(servers.map((s) => s.close()));
  });

  for (const format of ['table', 'json']) {
    test(`--format ${format}: 25 and 1,000 nodes, every node with three credentials`, async () => {
      await assertGrowsLinearlyAsync(
        async (nodes) => {
          const api = await startPlatformServer({ apiKey, pageSize: 100, data: sampleData({ nodes }) });
          servers.push(api);
          return api;
        },
        async (api) => {
          const run = await runMain(['platform', 'nodes', '--format', format, '--api-url', api.url], { CHAINDECK_API_KEY: apiKey }, true);
          assert.equal(run.code, 0, run.err);
          assert.ok(!run.out.includes(sampleKey(0)), 'the keys are masked');
        },
        25,
        1000,
      );
    });
  }
});

describe('platform: credentials in fields the schema does not know, and short ones', () => {
  let api: PlatformServer;
  after(async () => {
    closeIdleConnections();
    await api.close();
  });

  test('masked by the name of their field, wherever they stand, in the table and in JSON', async () => {
    const data = sampleData({
      nodes: 2,
      details: (i) => ({
        https_endpoint: `https://nd-${i}.example.com/${sampleKey(i)}`,
        auth_key: sampleKey(i),
        auth_username: 'alice',
        auth_password: 'pw', // short
        graphql_token: `gq-token-${i}-abcdef`,
        db_password: 918273 + i, // a number, so not the schema's string
        credentials: { user: 'bob', pass: `cred-pass-${i}-xyz` },
        'x-api-key': `xak-${i}-0123456789`,
        connection: `postgres://alice:pw@db-${i}.example.com:5432/chain`,
        note: 'pw',
      }),
    });
    api = await startPlatformServer({ apiKey, data });
    const secrets = [0, 1].flatMap((i) => [sampleKey(i), `gq-token-${i}-abcdef`, String(918273 + i), `cred-pass-${i}-xyz`, `xak-${i}-0123456789`]);
    const json = await runMain(['platform', 'nodes', '--format', 'json', '--api-url', api.url], { CHAINDECK_API_KEY: apiKey }, true);
    assert.equal(json.code, 0, json.err);
    for (const s of secrets) assert.ok(!json.out.includes(s), `${s} shown:\n${json.out}`);
    const nodes = JSON.parse(json.out) as { details: Record<string, unknown> & { extra: Record<string, unknown> } }[];
    const { details } = nodes[0];
    assert.equal(details.auth_password, '***');
    assert.equal(details.auth_username, 'alice');
    assert.deepEqual(details.extra.credentials, { user: 'bob', pass: '***' });
    assert.equal(details.extra.db_password, '***');
    assert.equal(details.extra.connection, 'postgres://alice:***@db-0.example.com:5432/chain', 'a short password where it stands as a URL part');
    assert.equal(details.extra.note, '***', 'a short password where it stands as a whole value');
    const table = await runMain(['platform', 'nodes', '--api-url', api.url], { CHAINDECK_API_KEY: apiKey }, true);
    assert.equal(table.code, 0, table.err);
    for (const s of secrets) assert.ok(!table.out.includes(s), `${s} shown:\n${table.out}`);
  });
});
