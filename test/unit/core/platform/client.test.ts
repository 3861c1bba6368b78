/**
 * The platform client's list paging against the loopback platform server (the wire contract of
 * the shared platform-api note): the page limit is exact, and an object seen on two pages counts once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PlatformClient } from '../../../../src/core/platform/client';
import { PlatformError } from '../../../../src/core/platform/errors';
import { sampleData, startPlatformServer, type PlatformServer } from '../../../support/platformServer';

const apiKey = 'pk_paging_0123456789abcdef';

describe('platform lists', () => {
  let api: PlatformServer;
  before(async () => {
    api = await startPlatformServer({ apiKey, pageSize: 1, data: sampleData({ nodes: 5 }) });
  });
  after(() => api.close());

  test('a list of exactly maxPages pages is read whole; one page more is a bad reply', async () => {
    api.clear();
    const all = await new PlatformClient({ apiKey, apiUrl: api.url, maxPages: 5 }).listNodes();
    assert.equal(all.length, 5);
    assert.equal(api.requests.length, 5, 'one request a page');
    api.clear();
    await assert.rejects(
      new PlatformClient({ apiKey, apiUrl: api.url, maxPages: 4 }).listNodes(),
      (err: unknown) => err instanceof PlatformError && /more than 4 pages of nodes/.test(err.message) && err.page === 5,
    );
    assert.equal(api.requests.length, 4, 'the fifth page is never asked for');
  });

  test('an object that shows on two pages is listed once, in its first place', async () => {
    const nodes = api.data.nodes;
    const original = nodes.map((n) => n.id);
    // The first node moved while the pages were read: it shows on page 1 and again on page 4.
    nodes.splice(3, 0, { ...nodes[0] });
    try {
      api.clear();
      const listed = await new PlatformClient({ apiKey, apiUrl: api.url }).listNodes();
      assert.deepEqual(
        listed.map((n) => n.id),
        original,
      );
      assert.equal(api.requests.length, 6, 'every page was read');
    } finally {
      nodes.splice(3, 1);
    }
  });
});
