import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseObject, parsePage, ShapeError } from '../../../../src/core/platform/parse';

describe('platform objects are read tolerantly', () => {
  test('documented fields are typed; unknown fields are kept in extra, unchanged', () => {
    const node = parseObject('nodes', {
      id: 'ND-1',
      name: 'eth-main',
      network: 'NW-1',
      status: 'running',
      configuration: { archive: true, pruning: 'none' },
      details: { https_endpoint: 'https://nd-1.example.com/abc', api_namespaces: ['eth', 'net'], beacon_extra: 1 },
      billing: { plan: 'growth' },
    });
    assert.equal(node.id, 'ND-1');
    assert.equal(node.name, 'eth-main');
    assert.equal(node.configuration?.archive, true);
    assert.deepEqual(node.configuration?.extra, { pruning: 'none' });
    assert.deepEqual(node.details?.api_namespaces, ['eth', 'net']);
    assert.deepEqual(node.details?.extra, { beacon_extra: 1 });
    assert.deepEqual(node.extra, { billing: { plan: 'growth' } });
  });

  test('missing fields are undefined; null counts as missing', () => {
    const project = parseObject('projects', { id: 'PR-1', description: null });
    assert.equal(project.name, undefined);
    assert.equal(project.description, undefined);
    assert.ok(!('description' in project.extra), 'a known field sent as null is not "unknown"');
  });

  test('a documented field of another type goes to extra instead of breaking the listing', () => {
    const network = parseObject('networks', { id: 'NW-1', name: 42, configuration: 'mainnet', nodes: 'ND-1' });
    assert.equal(network.name, undefined);
    assert.equal(network.configuration, undefined);
    assert.deepEqual(network.extra, { name: 42, configuration: 'mainnet', nodes: 'ND-1' });
    const node = parseObject('nodes', { id: 'ND-1', details: { api_namespaces: ['eth', 3] } });
    assert.deepEqual(node.details?.extra, { api_namespaces: ['eth', 3] }, 'a list with a non-string is not a string list');
  });

  test('id is required: a number is taken as text; none, empty or an object is a ShapeError', () => {
    assert.equal(parseObject('identities', { id: 7 }).id, '7');
    assert.throws(
      () => parseObject('nodes', { name: 'x' }),
      (err) => err instanceof ShapeError && /has no id$/.test(err.message),
    );
    assert.throws(() => parseObject('nodes', { id: '' }), /has no id \(id is ""\)/);
    assert.throws(() => parseObject('nodes', { id: { value: 1 } }), /has no id/);
    assert.throws(() => parseObject('nodes', ['ND-1']), /expected a JSON object, got an array/);
    assert.throws(() => parseObject('nodes', null), /got null/);
  });

  test('the organization is an object like the others', () => {
    assert.deepEqual(parseObject('organization', { id: 'RG-123-456', name: 'Acme', plan: 'pro' }), { id: 'RG-123-456', name: 'Acme', extra: { plan: 'pro' } });
  });
});

describe('list pages', () => {
  test('{count, next, previous, results}; empty or null links are no link', () => {
    assert.deepEqual(parsePage({ count: 3, next: 'https://a/v1/nodes/?page=2', previous: null, results: [{ id: 'x' }] }), {
      count: 3,
      next: 'https://a/v1/nodes/?page=2',
      previous: undefined,
      results: [{ id: 'x' }],
    });
    assert.equal(parsePage({ results: [], next: '' }).next, undefined);
    assert.equal(parsePage({ results: [] }).count, undefined, 'count is optional');
  });

  test('a reply without results is not a page', () => {
    assert.throws(() => parsePage({ id: 'ND-1', name: 'x' }), /expected a page \{count, next, previous, results\}, got an object with id, name/);
    assert.throws(() => parsePage([{ id: 'ND-1' }]), /got an array/);
  });
});

describe('every documented field with its type, ids and page fields', () => {
  /**
   * Reading the platform API's objects and list pages (src/core/platform/parse.ts) at the edges the
   * first tests left open: every documented field of every kind is taken with its type (none lands in
   * `extra`), `creator` is taken whatever its type, ids that are blank or not finite are no id, and
   * the page fields `count`, `next`, `previous` are taken only with their documented types. Also the
   * exact ShapeError texts that end up in "not what the platform API sends" messages.
   */
  describe('every documented field is taken, none goes to extra', () => {
    test('a project with all its documented fields (notes/platform-api.md) has an empty extra', () => {
      const raw = {
        id: 'PR-123-456',
        name: 'Main',
        description: 'Production nodes',
        type: 'public',
        members: [{ id: 'U-1' }],
        networks: ['NW-1'],
        creator: { id: 'U-1', email: 'a@example.com' },
        created_at: '2024-01-02T03:04:05Z',
      };
      assert.deepEqual(parseObject('projects', raw), { ...raw, extra: {} });
    });

    test('a network with all its documented fields has an empty extra; configuration.network is typed too', () => {
      const network = parseObject('networks', {
        id: 'NW-123-456-7',
        name: 'eth-main',
        project: 'PR-123-456',
        protocol: 'ethereum',
        configuration: { network: 'mainnet' },
        status: 'running',
        nodes: [{ id: 'ND-1' }],
        created_at: '2024-01-02T03:04:05Z',
      });
      assert.deepEqual(network, {
        id: 'NW-123-456-7',
        name: 'eth-main',
        project: 'PR-123-456',
        protocol: 'ethereum',
        configuration: { network: 'mainnet', extra: {} },
        status: 'running',
        nodes: [{ id: 'ND-1' }],
        created_at: '2024-01-02T03:04:05Z',
        extra: {},
      });
    });

    test('a node with all its documented fields, details included, has empty extras', () => {
      const details = {
        mode: 'full',
        version: '1.13.0',
        api_namespaces: ['eth', 'net', 'web3'],
        https_endpoint: 'https://nd-1.example.com',
        wss_endpoint: 'wss://ws-nd-1.example.com',
        beacon_endpoint: 'https://beacon-nd-1.example.com',
        graphql_endpoint: 'https://nd-1.example.com/graphql',
        auth_username: 'user',
        auth_password: 'pass',
        auth_key: 'key',
      };
      const raw = {
        id: 'ND-123-456-789',
        name: 'eth-main-1',
        network: 'NW-123-456-7',
        organization: 'RG-123-456',
        type: 'dedicated',
        role: 'peer',
        provider: 'aws',
        region: 'us-east-1',
        status: 'running',
        configuration: { archive: false },
        details,
        created_at: '2024-01-02T03:04:05Z',
        creator: 'U-1',
      };
      // Every field typed as it came; nothing left over, at any level.
      assert.deepEqual(parseObject('nodes', raw), { ...raw, configuration: { archive: false, extra: {} }, details: { ...details, extra: {} }, extra: {} });
    });

    test('an identity with all its fields has an empty extra', () => {
      const raw = { id: 'ID-123-456', name: 'ci', type: 'api-key', status: 'active', created_at: '2024-01-02T03:04:05Z' };
      assert.deepEqual(parseObject('identities', raw), { ...raw, extra: {} });
    });

    test('creator is taken whatever its type (a string, a number, an object)', () => {
      assert.equal(parseObject('projects', { id: 'PR-1', creator: 'a@example.com' }).creator, 'a@example.com');
      assert.equal(parseObject('nodes', { id: 'ND-1', creator: 7 }).creator, 7);
      assert.deepEqual(parseObject('nodes', { id: 'ND-1', creator: { id: 'U-1' } }).creator, { id: 'U-1' });
    });

    test('configuration.archive is taken only as a boolean; "yes" goes to extra', () => {
      const node = parseObject('nodes', { id: 'ND-1', configuration: { archive: 'yes' } });
      assert.deepEqual(node.configuration, { extra: { archive: 'yes' } });
    });

    test('a field that is undefined counts as missing, like null: it is not put in extra', () => {
      assert.deepEqual(parseObject('projects', { id: 'PR-1', creator: undefined, name: undefined }), { id: 'PR-1', extra: {} });
    });
  });

  describe('id', () => {
    test('an id of only blanks is no id', () => {
      assert.throws(() => parseObject('nodes', { id: '   ' }), { name: 'ShapeError', message: 'the object has no id (id is "   ")' });
    });

    test('a number id that is not finite (JSON 1e999 is Infinity) is no id', () => {
      const raw: unknown = JSON.parse('{"id": 1e999}');
      assert.throws(
        () => parseObject('nodes', raw),
        (e) => e instanceof ShapeError && e.message === 'the object has no id (id is null)',
      );
      assert.throws(() => parseObject('nodes', { id: Number.NaN }), /the object has no id/);
    });

    test('a value that is not an object is named by its type', () => {
      assert.throws(() => parseObject('nodes', 'ND-1'), { name: 'ShapeError', message: 'expected a JSON object, got string' });
      assert.throws(() => parseObject('nodes', 42), { message: 'expected a JSON object, got number' });
    });
  });

  describe('list pages', () => {
    test('a page that is not an object says what it is', () => {
      assert.throws(() => parsePage(null), { name: 'ShapeError', message: 'expected a JSON object with results, got null' });
      assert.throws(() => parsePage('page'), { message: 'expected a JSON object with results, got string' });
      assert.throws(() => parsePage(3), { message: 'expected a JSON object with results, got number' });
      assert.throws(() => parsePage([]), { message: 'expected a JSON object with results, got an array' });
    });

    test('an empty object is "an object with no fields"', () => {
      assert.throws(() => parsePage({}), { message: 'expected a page {count, next, previous, results}, got an object with no fields' });
    });

    test('previous is taken when it is a non-empty string', () => {
      assert.equal(parsePage({ results: [], previous: 'https://a/v1/nodes/?page=1' }).previous, 'https://a/v1/nodes/?page=1');
      assert.equal(parsePage({ results: [], previous: '' }).previous, undefined);
    });

    test('count, next and previous of another type are no count and no link', () => {
      assert.deepEqual(parsePage({ count: '3', next: 2, previous: 1, results: [] }), { count: undefined, next: undefined, previous: undefined, results: [] });
      assert.deepEqual(parsePage({ next: true, previous: true, results: [] }), { count: undefined, next: undefined, previous: undefined, results: [] });
    });
  });
});
