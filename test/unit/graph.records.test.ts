import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isAccessKeySegment,
  resolveSubgraphUrls,
  splitKeyFromUrl,
  subgraphSecretValues,
  templateFromPrinted,
  templateSubgraphUrls,
  validateSubgraphRecord,
  withKey,
  type SubgraphRecord,
} from '../../src/core/subgraph/records';

const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';

test('a key in the path becomes {key}; the rest of the URL is kept', () => {
  assert.deepEqual(splitKeyFromUrl(`https://api.example.com/${KEY}/deploy/`), { template: 'https://api.example.com/{key}/deploy/', key: KEY });
  assert.deepEqual(splitKeyFromUrl(`https://api.example.com/ipfs/${KEY}/api/v0?x=1`), { template: 'https://api.example.com/ipfs/{key}/api/v0?x=1', key: KEY });
});

test('URLs without a key, deployment ids and dashed subgraph names are left alone', () => {
  assert.deepEqual(splitKeyFromUrl('http://127.0.0.1:8020/'), { template: 'http://127.0.0.1:8020/' });
  const byId = 'https://host.example.com/subgraphs/id/QmdRz3KNfUZ7LWct1Fgu7kUWxFBaePZ8dtoDSuVertagET';
  assert.deepEqual(splitKeyFromUrl(byId), { template: byId });
  const byName = 'https://host.example.com/subgraphs/name/team/erc20approvals2024mainnet';
  assert.deepEqual(splitKeyFromUrl(byName), { template: byName });
  assert.equal(isAccessKeySegment('erc20-approvals-mainnet-2024'), false);
  assert.equal(isAccessKeySegment('0b7c6d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e'), true);
});

test('the four console URLs share one key; a second, different key is refused', () => {
  const { urls, accessKey } = templateSubgraphUrls({
    deployUrl: `https://deploy.example.com/${KEY}`,
    ipfsUrl: `https://ipfs.example.com/${KEY}/api/v0`,
    queryUrl: `https://query.example.com/${KEY}/subgraphs/name/my/erc20`,
    graphqlUiUrl: `https://query.example.com/${KEY}/subgraphs/name/my/erc20/graphql`,
  });
  assert.equal(accessKey, KEY);
  assert.deepEqual(urls, {
    deployUrl: 'https://deploy.example.com/{key}',
    ipfsUrl: 'https://ipfs.example.com/{key}/api/v0',
    queryUrl: 'https://query.example.com/{key}/subgraphs/name/my/erc20',
    graphqlUiUrl: 'https://query.example.com/{key}/subgraphs/name/my/erc20/graphql',
  });
  assert.throws(
    () =>
      templateSubgraphUrls({
        deployUrl: `https://deploy.example.com/${KEY}`,
        ipfsUrl: 'https://ipfs.example.com/0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e',
        queryUrl: '',
        graphqlUiUrl: '',
      }),
    (err: Error & { field?: string }) => err.field === 'ipfsUrl' && !err.message.includes(KEY),
  );
});

test('the key goes back in only where the template asks, URL-encoded; a missing key is an error', () => {
  assert.equal(withKey('https://h.example.com/{key}/deploy', 'a/b c'), 'https://h.example.com/a%2Fb%20c/deploy');
  assert.equal(withKey('http://127.0.0.1:8020/', undefined), 'http://127.0.0.1:8020/');
  assert.throws(() => withKey('https://h.example.com/{key}', undefined, 'deploy URL'), /deploy URL needs the subgraph's access key/);
  const record = { deployUrl: 'https://d.example.com/{key}', ipfsUrl: 'https://i.example.com/api/v0', queryUrl: 'https://q.example.com/{key}/subgraphs/name/a', graphqlUiUrl: '' };
  assert.deepEqual(resolveSubgraphUrls(record, { accessKey: KEY }), {
    deployUrl: `https://d.example.com/${KEY}`,
    ipfsUrl: 'https://i.example.com/api/v0',
    queryUrl: `https://q.example.com/${KEY}/subgraphs/name/a`,
    graphqlUiUrl: '',
  });
});

test('record validation names each missing field and any key left in a URL', () => {
  const record: Partial<SubgraphRecord> = { name: 'my/erc20', project: '', protocol: 'ethereum', network: 'mainnet', deployUrl: `https://d.example.com/${KEY}`, ipfsUrl: 'ftp://x' };
  const problems = validateSubgraphRecord(record);
  assert.deepEqual(
    problems.map((p) => p.field),
    ['project', 'deployUrl', 'ipfsUrl'],
  );
  for (const p of problems) assert.ok(!p.message.includes(KEY));
  assert.deepEqual(validateSubgraphRecord({ name: 'my/erc20', project: 'PR-1', protocol: 'ethereum', network: 'mainnet', deployUrl: 'https://d.example.com/{key}' }), []);
});

test('printed URLs take the record form; the secret list covers encoded forms', () => {
  assert.equal(templateFromPrinted(`http://q.example.com/${KEY}/subgraphs/name/a`, KEY), 'http://q.example.com/{key}/subgraphs/name/a');
  assert.deepEqual(subgraphSecretValues({ accessKey: 'a b', deployKey: 'dk' }), ['a b', 'a%20b', 'dk']);
});
