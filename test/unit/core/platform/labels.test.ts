/**
 * How platform objects are named (src/core/platform/labels.ts): status icons, descriptions,
 * hovers with every credential masked, a failure's short words and remedy, and what an import did.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NodeConfig } from '../../../../src/core/nodes/model';
import { PlatformError } from '../../../../src/core/platform/errors';
import {
  describeImport,
  failureHeadline,
  failureRemedy,
  identityDescription,
  identityHover,
  joined,
  networkDescription,
  networkHover,
  nodeDescription,
  nodeHover,
  organizationDescription,
  organizationHover,
  projectDescription,
  projectHover,
  statusIcon,
} from '../../../../src/core/platform/labels';
import type { PlatformNode } from '../../../../src/core/platform/types';

const KEY = 'c0ffee1234567890deadbeef';
const node: PlatformNode = {
  id: 'ND-1',
  name: 'Archive',
  status: 'running',
  type: 'dedicated',
  region: 'eu',
  configuration: { archive: true },
  details: { https_endpoint: `https://nd-1.example.com/${KEY}`, auth_key: KEY, api_namespaces: ['eth', 'net'] },
} as PlatformNode;

describe('platform labels', () => {
  test('status icons: known statuses by any case, an empty circle otherwise', () => {
    assert.deepEqual(statusIcon('Running'), { icon: 'pass', color: 'charts.green' });
    assert.deepEqual(statusIcon('pending'), { icon: 'loading~spin' });
    assert.deepEqual(statusIcon(undefined), { icon: 'circle-outline' });
    assert.deepEqual(statusIcon('weird'), { icon: 'circle-outline' });
  });

  test('descriptions join the parts that are there; a running network does not say so', () => {
    assert.equal(joined('a', undefined, '', 'b'), 'a · b');
    assert.equal(nodeDescription(node), 'running · dedicated · eu');
    assert.equal(networkDescription({ id: 'NW-1', protocol: 'ethereum', status: 'running', configuration: { network: 'mainnet' } } as never), 'ethereum · mainnet');
    assert.equal(networkDescription({ id: 'NW-1', protocol: 'ethereum', status: 'stopped' } as never), 'ethereum · stopped');
    assert.equal(organizationDescription({ id: 'RG-1', name: 'Acme' } as never), 'RG-1');
    assert.equal(organizationDescription({ id: 'RG-1' } as never), undefined, 'the id is the label already');
    assert.equal(projectDescription({ id: 'PR-1', name: 'p' } as never), 'PR-1');
    assert.equal(identityDescription({ id: 'ID-1', type: 'api', status: 'active' } as never), 'api · active');
  });

  test('a node hover: its facts, endpoints masked, the credential form and never the key; booleans as yes/no', () => {
    const h = nodeHover(node);
    assert.equal(h.icon, 'server');
    assert.equal(h.title, 'Archive');
    assert.deepEqual(h.rows, [
      ['ID', 'ND-1'],
      ['Status', 'running'],
      ['Type', 'dedicated'],
      ['Region', 'eu'],
      ['Archive', 'yes'],
      ['APIs', 'eth, net'],
      ['HTTPS', 'https://nd-1.example.com/***'],
      ['Credentials', 'access key in the path'],
    ]);
    assert.ok(!JSON.stringify(h).includes(KEY));
    assert.deepEqual(nodeHover({ id: 'ND-2' } as PlatformNode).rows, [
      ['ID', 'ND-2'],
      ['Credentials', "not shown (only to the node's owner)"],
    ]);
    assert.deepEqual(nodeHover({ id: 'ND-3', details: { auth_username: 'u' } } as PlatformNode).rows.at(-1), ['Credentials', 'username and password (HTTP Basic)']);
    assert.deepEqual(nodeHover({ id: 'ND-4', details: {} } as PlatformNode).rows.at(-1), ['Credentials', 'none given']);
  });

  test('the other hovers: icon, name (else id), and the facts given', () => {
    assert.deepEqual(organizationHover({ id: 'RG-1', name: 'Acme' } as never), { icon: 'organization', title: 'Acme', rows: [['ID', 'RG-1']] });
    assert.deepEqual(projectHover({ id: 'PR-1', networks: [1, 2], members: [] } as never), {
      icon: 'project',
      title: 'PR-1',
      rows: [
        ['ID', 'PR-1'],
        ['Networks', '2'],
        ['Members', '0'],
      ],
    });
    assert.deepEqual(networkHover({ id: 'NW-1', protocol: 'ethereum' } as never), {
      icon: 'globe',
      title: 'NW-1',
      rows: [
        ['ID', 'NW-1'],
        ['Protocol', 'ethereum'],
      ],
    });
    assert.deepEqual(identityHover({ id: 'ID-1', name: 'ci', status: 'active' } as never), {
      icon: 'person',
      title: 'ci',
      rows: [
        ['ID', 'ID-1'],
        ['Status', 'active'],
      ],
    });
  });

  test('a failure: short words for its kind, and what clicking it does', () => {
    assert.equal(failureHeadline(new PlatformError('auth', 'x')), 'API key not accepted: set a new one');
    assert.equal(failureHeadline(new PlatformError('bad-reply', 'x')), undefined);
    assert.equal(failureHeadline(new Error('x')), undefined);
    assert.equal(failureRemedy(new PlatformError('auth', 'x')), 'set-key');
    for (const kind of ['unreachable', 'tls', 'not-json', 'invalid-request'] as const) assert.equal(failureRemedy(new PlatformError(kind, 'x')), 'check-api-url', kind);
    assert.equal(failureRemedy(new PlatformError('not-found', 'The platform API has nothing at …')), 'check-api-url');
    assert.equal(failureRemedy(new PlatformError('not-found', 'No such node ND-9 (…)')), 'refresh');
    assert.equal(failureRemedy(new PlatformError('server', 'x')), 'refresh');
    assert.equal(failureRemedy(new Error('x')), 'refresh');
  });
});

describe('what an import did', () => {
  const n = (name: string, auth: NodeConfig['auth'] = 'none'): NodeConfig => ({ id: name, name, protocol: 'evm', url: 'https://x.example.com', auth });

  test('added, updated, credentials, guesses and skips, each in its sentence', () => {
    assert.equal(
      describeImport({ added: [n('a', 'key')], updated: [n('b')], guessed: [n('a')], skipped: [{ name: 'c', why: 'c has no endpoint yet.' }] }),
      'Imported "a" into the Nodes view and updated "b". Credentials are in the system\'s secret storage. The protocol of "a" is a guess (EVM): change it with Edit Node… if it is wrong. Skipped 1: c has no endpoint yet.',
    );
    assert.equal(describeImport({ added: [], updated: [n('b'), n('d')], guessed: [], skipped: [] }), 'Updated "b", "d" in the Nodes view.');
    assert.equal(describeImport({ added: [], updated: [], guessed: [], skipped: [] }), 'Nothing to import.');
  });
});
