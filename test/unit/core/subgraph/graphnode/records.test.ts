import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  displaySubgraphUrl,
  isAccessKeySegment,
  isIpfsCid,
  SUBGRAPH_SECRET_KINDS,
  resolveSubgraphUrls,
  splitKeyFromUrl,
  subgraphSecretValues,
  templateFromPrinted,
  templateSubgraphUrls,
  validateSubgraphRecord,
  withKey,
  type SubgraphRecord,
} from '../../../../../src/core/subgraph/graphnode/records';

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

const CID0 = 'QmdRz3KNfUZ7LWct1Fgu7kUWxFBaePZ8dtoDSuVertagET';
const CID1 = `bafy${'a'.repeat(55)}`;
const UUID_KEY = '0b7c6d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e';

test('content ids are whole CIDv0 or CIDv1 segments, nothing around them', () => {
  assert.equal(isIpfsCid(CID0), true);
  assert.equal(isIpfsCid(CID1), true);
  for (const s of [`x${CID0}`, `${CID0}x`, `x${CID1}`, `${CID1}-`, 'bafy', `baf${'a'.repeat(49)}`]) assert.equal(isIpfsCid(s), false, s);
});

test('a key segment: a whole UUID, or 16+ word characters with both letters and digits', () => {
  assert.equal(isAccessKeySegment(UUID_KEY), true);
  assert.equal(isAccessKeySegment(`x${UUID_KEY}`), false);
  assert.equal(isAccessKeySegment(`${UUID_KEY}x`), false);
  assert.equal(isAccessKeySegment('abcdefgh12345678'), true); // exactly 16
  assert.equal(isAccessKeySegment('abcdefgh1234567'), false); // 15
  assert.equal(isAccessKeySegment('abcdefghijklmnopqrst'), false); // letters only
  assert.equal(isAccessKeySegment('12345678901234567890'), false); // digits only
  assert.equal(isAccessKeySegment(CID0), false);
});

test('only segments after /subgraphs/name/ are a subgraph name; a key before them or after another word is found', () => {
  assert.deepEqual(splitKeyFromUrl(`https://h.example.com/subgraphs/id/${KEY}`), { template: 'https://h.example.com/subgraphs/id/{key}', key: KEY });
  assert.deepEqual(splitKeyFromUrl(`https://h.example.com/name/${KEY}/x`), { template: 'https://h.example.com/name/{key}/x', key: KEY });
  assert.deepEqual(splitKeyFromUrl(`https://h.example.com/${KEY}/subgraphs/name/a`), { template: 'https://h.example.com/{key}/subgraphs/name/a', key: KEY });
});

test('pasted URLs: trimmed, a template kept as is, bad ones refused with the field and exact words', () => {
  assert.deepEqual(splitKeyFromUrl('  https://h.example.com/{key}/deploy \n'), { template: 'https://h.example.com/{key}/deploy' });
  assert.deepEqual(splitKeyFromUrl('{key}'), { template: '{key}' });
  assert.deepEqual(splitKeyFromUrl(` https://h.example.com/${KEY} `), { template: 'https://h.example.com/{key}', key: KEY });
  const refused = (f: () => unknown, message: string, field?: string) =>
    assert.throws(f, (err: Error & { field?: string }) => {
      assert.equal(err.name, 'SubgraphRecordError');
      assert.equal(err.message, message);
      assert.equal(err.field, field);
      return true;
    });
  refused(() => splitKeyFromUrl('not a url', undefined, 'deploy URL', 'deployUrl'), 'The deploy URL not a url is not a valid URL.', 'deployUrl');
  refused(() => splitKeyFromUrl('ftp://h.example.com/'), 'The URL must start with https:// (http:// for a local graph-node), not ftp://.');
  const userinfo = 'holds a user name or password (user:pass@); graph-node hosts take the key in the path or as a deploy key.';
  refused(() => splitKeyFromUrl('https://u@h.example.com/'), `The URL ${userinfo}`);
  refused(() => splitKeyFromUrl('https://:p@h.example.com/', undefined, 'IPFS URL', 'ipfsUrl'), `The IPFS URL ${userinfo}`, 'ipfsUrl');
  refused(() => withKey('https://h.example.com/{key}', undefined), "The URL needs the subgraph's access key (it holds {key}), but none is stored: enter it again.");
  refused(() => withKey('https://h.example.com/{key}', ''), "The URL needs the subgraph's access key (it holds {key}), but none is stored: enter it again.");
});

test('a known key is looked for as written when its segment is not valid percent-encoding', () => {
  assert.deepEqual(splitKeyFromUrl('https://h.example.com/k%zz/x', 'k%zz'), { template: 'https://h.example.com/{key}/x', key: 'k%zz' });
  assert.deepEqual(splitKeyFromUrl('https://h.example.com/abc%zz0123456789abcdef/x'), { template: 'https://h.example.com/abc%zz0123456789abcdef/x' });
});

test('blank or missing console URLs stay empty; a URL without the key is fine; a second key names its field', () => {
  const { urls, accessKey } = templateSubgraphUrls({
    deployUrl: ` https://deploy.example.com/${KEY} `,
    ipfsUrl: '   ',
    queryUrl: 'https://query.example.com/subgraphs/name/my/erc20',
  } as never);
  assert.equal(accessKey, KEY);
  assert.deepEqual(urls, { deployUrl: 'https://deploy.example.com/{key}', ipfsUrl: '', queryUrl: 'https://query.example.com/subgraphs/name/my/erc20', graphqlUiUrl: '' });
  assert.deepEqual(templateSubgraphUrls({ deployUrl: '', ipfsUrl: '', queryUrl: '', graphqlUiUrl: '' }), {
    urls: { deployUrl: '', ipfsUrl: '', queryUrl: '', graphqlUiUrl: '' },
    accessKey: undefined,
  });
  const second = (field: 'ipfsUrl' | 'queryUrl' | 'graphqlUiUrl', label: string) =>
    assert.throws(
      () =>
        templateSubgraphUrls({ deployUrl: `https://d.example.com/${KEY}`, ipfsUrl: '', queryUrl: '', graphqlUiUrl: '', [field]: 'https://x.example.com/0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e' }),
      (err: Error & { field?: string }) => {
        assert.equal(err.message, `The ${label} holds a different access key than the deploy URL; paste the URLs of one subgraph (one key).`);
        assert.equal(err.field, field);
        return true;
      },
    );
  second('ipfsUrl', 'IPFS URL');
  second('queryUrl', 'query URL');
  second('graphqlUiUrl', 'GraphQL UI URL');
});

test('a shown URL keeps its path ({key} included) and masks the user info and query', () => {
  assert.equal(displaySubgraphUrl('https://h.example.com/{key}/subgraphs/name/a'), 'https://h.example.com/{key}/subgraphs/name/a');
  assert.equal(displaySubgraphUrl('https://u:p@h.example.com/{key}/x?token=abc'), 'https://***@h.example.com/{key}/x?***');
});

test('record validation: the exact message for each missing field, blank names, name shapes and each URL label', () => {
  const all = validateSubgraphRecord({});
  assert.deepEqual(
    all.map((p) => [p.field, p.message]),
    [
      ['name', 'A subgraph needs a name.'],
      ['project', 'A subgraph must belong to a project.'],
      ['protocol', 'Choose the blockchain protocol.'],
      ['network', 'Choose the network.'],
    ],
  );
  const base = { project: 'p', protocol: 'ethereum', network: 'mainnet' };
  assert.deepEqual(
    validateSubgraphRecord({ ...base, name: '  ' }).map((p) => p.field),
    ['name', 'name'],
  );
  for (const name of ['a', 'a/b/c', 'my-team/erc_20']) assert.deepEqual(validateSubgraphRecord({ ...base, name }), [], name);
  for (const name of ['!abc', 'abc!', 'a//b', '/a', 'a/']) {
    assert.deepEqual(
      validateSubgraphRecord({ ...base, name }).map((p) => [p.field, p.message]),
      [['name', `Subgraph name '${name}': use letters, digits, '-', '_' and '/' between parts (e.g. my-team/erc20).`]],
      name,
    );
  }
  const urls = { deployUrl: `https://d.example.com/${KEY}`, ipfsUrl: `https://i.example.com/${KEY}`, queryUrl: `https://q.example.com/${KEY}`, graphqlUiUrl: `https://g.example.com/${KEY}` };
  assert.deepEqual(
    validateSubgraphRecord({ ...base, name: 'a', ...urls }).map((p) => [p.field, p.message]),
    [
      ['deployUrl', 'The deploy URL holds an access key; settings keep {key} in its place.'],
      ['ipfsUrl', 'The IPFS URL holds an access key; settings keep {key} in its place.'],
      ['queryUrl', 'The query URL holds an access key; settings keep {key} in its place.'],
      ['graphqlUiUrl', 'The GraphQL UI URL holds an access key; settings keep {key} in its place.'],
    ],
  );
  // {key} stands for a word while the URL is checked: a port that is a key is no valid URL.
  assert.deepEqual(
    validateSubgraphRecord({ ...base, name: 'a', deployUrl: 'http://h.example.com:{key}/' }).map((p) => [p.field, p.message]),
    [['deployUrl', 'The deploy URL http://h.example.com:KEY/ is not a valid URL.']],
  );
});

test('secret kinds, secret values without blanks, and printed URLs without a key', () => {
  assert.deepEqual(SUBGRAPH_SECRET_KINDS, [
    { name: 'accessKey', travels: 'in the path of the deploy, IPFS, query and GraphQL UI URLs' },
    { name: 'deployKey', travels: 'as Authorization: Bearer on the deploy call (graph deploy --deploy-key)' },
  ]);
  assert.deepEqual(subgraphSecretValues({ accessKey: 'k' }), ['k']);
  assert.deepEqual(subgraphSecretValues({ deployKey: '', accessKey: undefined }), []);
  assert.equal(templateFromPrinted('http://q.example.com/undefined/a', undefined), 'http://q.example.com/undefined/a');
  assert.equal(templateFromPrinted('http://q.example.com/a', ''), 'http://q.example.com/a');
});
