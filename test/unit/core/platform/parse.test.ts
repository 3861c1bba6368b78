import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
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
