/**
 * The rules protocols.ts applies across data sources, checked at their edges through
 * validateSubgraph: `ethereum/contract` is Ethereum (graph-cli's Protocol.normalizeName), items
 * without a protocol kind take no part, the no-handlers message names every handler list of the
 * protocol, the NEAR account rule (graph-cli's NearContract: 2 to 64 characters and its regex)
 * applies to NEAR data sources only, and subgraph composition counts data sources, not templates.
 * Small manifests written for these tests, in memory.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { memoryFileSource } from '../../src/core/subgraph/fileSource';
import type { Finding } from '../../src/core/subgraph/types';
import { validateSubgraph } from '../../src/core/subgraph/rules/validate';

const ROOT = path.join(path.sep, 'virtual', 'protoedges');
const SCHEMA = 'type Block @entity(immutable: true) { id: ID! }\n';

function validate(manifest: string, extra: Record<string, string> = {}): Finding[] {
  const files: Record<string, string> = { 'subgraph.yaml': manifest, 'schema.graphql': SCHEMA, 'src/mapping.ts': 'export function handleBlock(): void {}\n', 'abi.json': '[]', ...extra };
  const at = Object.fromEntries(Object.entries(files).map(([f, t]) => [path.join(ROOT, f), t]));
  return validateSubgraph(path.join(ROOT, 'subgraph.yaml'), memoryFileSource(at)).findings;
}
const errors = (findings: Finding[]) => findings.filter((f) => f.severity === 'error').map((f) => `${f.code}: ${f.message}`);
const codes = (findings: Finding[]) => findings.filter((f) => f.severity === 'error').map((f) => f.code);

const head = (version = '1.0.0') => `specVersion: ${version}\nschema:\n  file: ./schema.graphql\ndataSources:\n`;
const mapping = (handlers: string) =>
  `    mapping:\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      file: ./src/mapping.ts\n      entities:\n        - Block\n${handlers}`;
const blockHandler = '      blockHandlers:\n        - handler: handleBlock\n';
const near = (account = 'app.near', handlers = blockHandler) => `  - kind: near\n    name: Near\n    network: near-mainnet\n    source:\n      account: ${account}\n${mapping(handlers)}`;
const ethereum = (kind = 'ethereum') =>
  `  - kind: ${kind}\n    name: Token\n    network: mainnet\n    source:\n      abi: ERC20\n${mapping(`      abis:\n        - name: ERC20\n          file: ./abi.json\n${blockHandler}`)}`;
const cosmos = (handlers: string) => `  - kind: cosmos\n    name: Hub\n    network: cosmoshub-4\n    source:\n      startBlock: 1\n${mapping(handlers)}`;
const arweave = (source: string, handlers = blockHandler) => `  - kind: arweave\n    name: Ar\n    network: arweave-mainnet\n    source:\n${source}\n${mapping(handlers)}`;
const subgraphSource = (name: string, source: string) =>
  `  - kind: subgraph\n    name: ${name}\n    network: mainnet\n    source:\n${source}\n${mapping('      handlers:\n        - handler: handleBlock\n          entity: Block\n')}`;
const deployment = (i: number) => `QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLi${'ABCDEFGH'[i]}`;

describe('which data sources have a protocol (graph-cli Protocol.normalizeName)', () => {
  test('`ethereum/contract` is Ethereum: a near data source after it conflicts, an ethereum one does not', () => {
    assert.deepEqual(errors(validate(head() + ethereum('ethereum/contract') + near())), [
      "conflicting-protocols: Conflicting protocol kinds: 'near' here, 'ethereum/contract' in dataSources[0]; all data sources and templates must use one protocol (file data sources aside)",
    ]);
    assert.deepEqual(errors(validate(head() + ethereum('ethereum/contract') + ethereum().replace('name: Token', 'name: Token2'))), []);
  });

  test('a file template or a data source without a kind takes no part in the one-protocol rule', () => {
    const fileTemplate = `templates:\n  - kind: file/ipfs\n    name: Meta\n    mapping:\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      file: ./src/mapping.ts\n      handler: handleBlock\n      entities:\n        - Block\n`;
    assert.deepEqual(errors(validate(head() + near() + fileTemplate)), []);
    // The kind-less item is the first one: the near data source after it is the first with a protocol.
    const kindless = '  - name: Nameless\n    network: near-mainnet\n';
    const findings = validate(head() + kindless + near());
    assert.deepEqual(
      findings.filter((f) => f.code === 'conflicting-protocols'),
      [],
    );
    assert.ok(codes(findings).includes('missing-key'), JSON.stringify(errors(findings)));
  });
});

describe('graph-cli’s handler rule names every handler list of the protocol', () => {
  test('a cosmos mapping without handlers lists all four handler kinds', () => {
    assert.deepEqual(errors(validate(head() + cosmos(''))), [
      'no-handlers: Mapping has no blockHandlers, eventHandlers, transactionHandlers or messageHandlers; at least one is needed (graph build fails)',
    ]);
  });

  test('an arweave mapping without handlers lists its two handler kinds; one handler is enough', () => {
    assert.deepEqual(errors(validate(head() + arweave('      owner: ID-OF-AN-OWNER', ''))), [
      'no-handlers: Mapping has no blockHandlers or transactionHandlers; at least one is needed (graph build fails)',
    ]);
    assert.deepEqual(errors(validate(head() + cosmos('      messageHandlers:\n        - message: MsgSend\n          handler: handleBlock\n'))), []);
  });
});

describe('NEAR account names (graph-cli NearContract)', () => {
  const accountErrors = (account: string) => codes(validate(head() + near(account))).filter((c) => c === 'invalid-near-account').length;

  test('2 to 64 characters: 2 and 64 pass, 1 and 65 fail', () => {
    assert.equal(accountErrors('ab'), 0);
    assert.equal(accountErrors('a'.repeat(64)), 0);
    assert.equal(accountErrors('a'), 1);
    assert.deepEqual(errors(validate(head() + near('a'.repeat(65)))), [
      `invalid-near-account: NEAR account '${'a'.repeat(65)}' is invalid: 2 to 64 characters, lower-case letters, digits, and - _ . between them (graph-cli rejects it)`,
    ]);
  });

  test('lower-case letters and digits, with - _ . only between them', () => {
    for (const good of ['my-app', 'my_app.near', 'app.good-morning', 'a1.b-2_c.near', '0x1234']) assert.equal(accountErrors(good), 0, good);
    for (const bad of ['app.near-', 'app-', 'App-x.near', 'App.near', 'x.App-near', 'app.Near', 'a..b', '-app', 'app!', 'a-.b', 'a b']) assert.equal(accountErrors(bad), 1, bad);
  });

  test('an account that is not a string is a type error only', () => {
    assert.deepEqual(codes(validate(head() + near('12345'))), ['type-mismatch']);
    assert.deepEqual(codes(validate(head() + near('[app.near]'))), ['type-mismatch']);
  });

  test('the rule applies to NEAR data sources only: an `account` in an arweave source is an unknown key', () => {
    assert.deepEqual(codes(validate(head() + arweave('      account: Not_A.Near!'))), ['unknown-key']);
  });
});

describe('subgraph composition counts data sources, not templates (graph-node validate_subgraph_datasources)', () => {
  test('five subgraph data sources and a subgraph template repeating a source: only the template is reported', () => {
    const five = [0, 1, 2, 3, 4].map((i) => subgraphSource(`Src${i}`, `      address: ${deployment(i)}`)).join('');
    const template = `templates:\n${subgraphSource('Again', `      address: ${deployment(0)}`)}`;
    assert.deepEqual(codes(validate(head('1.3.0') + five + template)), ['template-kind-unsupported']);
  });

  test('a sixth data source and a repeated source are reported with their messages', () => {
    const six = [0, 1, 2, 3, 4, 5].map((i) => subgraphSource(`Src${i}`, `      address: ${deployment(i === 5 ? 0 : i)}`)).join('');
    assert.deepEqual(errors(validate(head('1.3.0') + six)), [
      'too-many-subgraph-sources: At most 5 subgraph data sources are allowed; this manifest has 6 (graph-node rejects it)',
      `duplicate-subgraph-source: Subgraph ${deployment(0)} is already a source of another data source (graph-node rejects duplicates)`,
    ]);
  });

  test('sources without a string address are missing keys or type errors, never duplicates of each other', () => {
    const missing = subgraphSource('A', '      startBlock: 1') + subgraphSource('B', '      startBlock: 2');
    assert.deepEqual(codes(validate(head('1.3.0') + missing)), ['missing-key', 'missing-key']);
    const numbers = subgraphSource('A', '      address: 1') + subgraphSource('B', '      address: 1');
    assert.deepEqual(codes(validate(head('1.3.0') + numbers)), ['type-mismatch', 'type-mismatch']);
  });
});
