/**
 * Data sources of the other protocols (near, cosmos, arweave, substreams, subgraph composition)
 * are checked as graph-cli 0.98 checks them: their shape equals its SDL for each protocol, and
 * one manifest holds one protocol (issue 12, finding 9 and deliverable 2). Small manifests
 * written for these tests, in memory.
 */
import { Kind, parse, type TypeNode } from 'graphql';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe } from 'node:test';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import { otherProtocolShape } from '../../../../../src/core/subgraph/manifest/protocolShapes';
import { manifestKeysAt } from '../../../../../src/core/subgraph/manifest/shape';
import type { Shape } from '../../../../../src/core/subgraph/manifest/shapeKit';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import type { Finding } from '../../../../../src/core/subgraph/types';
import { findingsRecorder } from '../../../../support/findings';
import { repoPath } from '../../../../support/paths';

const cli = repoPath('node_modules/@graphprotocol/graph-cli');
const ROOT = path.join(path.sep, 'virtual', 'proto');
const SCHEMA = 'type Block @entity(immutable: true) { id: ID! }\n';
// Every validation's findings, under its test's name, for protocols.findings.txt (the last test).
const { test, record, check } = findingsRecorder();

function validate(manifest: string, extra: Record<string, string> = {}): Finding[] {
  const files: Record<string, string> = {
    'subgraph.yaml': manifest,
    'schema.graphql': SCHEMA,
    'src/mapping.ts': 'export function handleBlock(): void {}\n',
    'sub.spkg': 'a package',
    ...extra,
  };
  const at = Object.fromEntries(Object.entries(files).map(([f, t]) => [path.join(ROOT, f), t]));
  return record(validateSubgraph(path.join(ROOT, 'subgraph.yaml'), memoryFileSource(at)).findings);
}
const errors = (findings: Finding[]) => findings.filter((f) => f.severity === 'error').map((f) => `${f.code}: ${f.message}`);

const head = 'specVersion: 1.0.0\nschema:\n  file: ./schema.graphql\ndataSources:\n';
const mapping = (handlers: string) =>
  `    mapping:\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      file: ./src/mapping.ts\n      entities:\n        - Block\n${handlers}`;
const near = (source = '      account: app.good-morning.near\n      startBlock: 10', handlers = '      blockHandlers:\n        - handler: handleBlock\n') =>
  `  - kind: near\n    name: Near\n    network: near-mainnet\n    source:\n${source}\n${mapping(handlers)}`;
const ethereum = `  - kind: ethereum\n    name: Token\n    network: mainnet\n    source:\n      abi: ERC20\n${mapping('      abis:\n        - name: ERC20\n          file: ./abi.json\n      blockHandlers:\n        - handler: handleBlock\n')}`;
const ABI = { 'abi.json': '[]' };

describe('non-Ethereum data sources against graph-cli’s shapes', () => {
  test('each protocol’s data source shape equals graph-cli’s SDL', () => {
    for (const protocol of ['near', 'cosmos', 'arweave', 'substreams', 'subgraph']) {
      const sdl = parse(fs.readFileSync(path.join(cli, `dist/protocols/${protocol}/manifest.graphql`), 'utf8'));
      const defs = new Map(sdl.definitions.flatMap((d) => ('name' in d && d.name ? [[d.name.value, d] as const] : [])));
      const sdlShape = (t: TypeNode): unknown => {
        if (t.kind === Kind.NON_NULL_TYPE) return { required: sdlShape(t.type) };
        if (t.kind === Kind.LIST_TYPE) return { list: sdlShape(t.type) };
        const def = defs.get(t.name.value);
        if (def?.kind === Kind.OBJECT_TYPE_DEFINITION) return { [def.name.value]: Object.fromEntries((def.fields ?? []).map((f) => [f.name.value, sdlShape(f.type)])) };
        if (def?.kind === Kind.ENUM_TYPE_DEFINITION) return { enum: (def.values ?? []).map((v) => v.name.value) };
        return t.name.value;
      };
      const ours = (s: Shape, required: boolean): unknown => {
        const inner = (): unknown =>
          s.type === 'list'
            ? { list: ours(s.of, s.itemRequired) }
            : s.type === 'object'
              ? { [s.name]: Object.fromEntries(Object.entries(s.fields).map(([k, f]) => [k, ours(f.shape, f.required)])) }
              : s.type === 'enum'
                ? { enum: [...s.values] }
                : s.type;
        return required ? { required: inner() } : inner();
      };
      const root = defs.get('SubgraphManifest');
      assert.ok(root?.kind === Kind.OBJECT_TYPE_DEFINITION);
      // dataSources: [DataSource!]!: the item type is under the non-null and the list.
      const list = root.fields?.find((f) => f.name.value === 'dataSources')?.type;
      assert.ok(list?.kind === Kind.NON_NULL_TYPE && list.type.kind === Kind.LIST_TYPE);
      const item = list.type.type;
      assert.deepEqual(ours(otherProtocolShape(protocol)!, true), sdlShape(item), protocol);
    }
  });

  test('valid near, cosmos, arweave, substreams and composition manifests give no error', () => {
    assert.deepEqual(errors(validate(head + near())), []);
    assert.deepEqual(errors(validate(head + near('      accounts:\n        prefixes:\n          - app\n        suffixes:\n          - .near'))), []);
    const cosmos = `  - kind: cosmos\n    name: Hub\n    network: cosmoshub-4\n    source:\n      startBlock: 1\n${mapping('      eventHandlers:\n        - event: rewards\n          origin: BeginBlock\n          handler: handleBlock\n')}`;
    assert.deepEqual(errors(validate(head + cosmos)), []);
    const arweave = `  - kind: arweave\n    name: Ar\n    network: arweave-mainnet\n    source:\n      owner: ID-OF-AN-OWNER\n${mapping('      transactionHandlers:\n        - handler: handleBlock\n')}`;
    assert.deepEqual(errors(validate(head + arweave)), []);
    const substreams = `  - kind: substreams\n    name: Sub\n    network: mainnet\n    source:\n      package:\n        moduleName: graph_out\n        file: ./sub.spkg\n    mapping:\n      kind: substreams/graph-entities\n      apiVersion: 0.0.7\n`;
    assert.deepEqual(errors(validate(head + substreams)), []);
    // The source address of a composed subgraph is a deployment id, not an EVM address.
    const composed = `  - kind: subgraph\n    name: Src\n    network: mainnet\n    source:\n      address: QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM\n      startBlock: 1\n${mapping('      handlers:\n        - handler: handleBlock\n          entity: Block\n')}`;
    assert.deepEqual(errors(validate(head.replace('1.0.0', '1.3.0') + composed)), []);
  });

  test('unknown and missing keys, wrong types and enum values are reported as for Ethereum', () => {
    assert.match(errors(validate(head + near('      acount: app.near')))[0], /^unknown-key: Unexpected key 'acount' in dataSources\[0\]\.source; did you mean 'account'\?/);
    assert.deepEqual(
      errors(validate(head + near('      account: app.near\n      startBlock: "10"'))).map((e) => e.split(':')[0]),
      ['type-mismatch'],
    );
    const cosmos = `  - kind: cosmos\n    name: Hub\n    source:\n      startBlock: 1\n${mapping('      eventHandlers:\n        - event: rewards\n          origin: Middle\n          handler: handleBlock\n')}`;
    assert.deepEqual(
      errors(validate(head + cosmos)).map((e) => e.split(':')[0]),
      ['invalid-enum'],
    );
    const substreams = `  - kind: substreams\n    name: Sub\n    source:\n      package:\n        file: ./sub.spkg\n    mapping:\n      apiVersion: 0.0.7\n`;
    assert.deepEqual(
      errors(validate(head + substreams))
        .map((e) => e.split(':')[0])
        .sort(),
      ['missing-key', 'missing-key'],
    );
  });

  test('a Substreams package that does not exist: an error (codegen passes; graph build fails reading it)', () => {
    const substreams = (file: string) =>
      `  - kind: substreams\n    name: Sub\n    network: mainnet\n    source:\n      package:\n        moduleName: graph_out\n        file: ${file}\n    mapping:\n      kind: substreams/graph-entities\n      apiVersion: 0.0.7\n`;
    assert.deepEqual(errors(validate(head + substreams('./missing.spkg'))), ['file-not-found: File does not exist: ./missing.spkg (graph build reads the Substreams package and fails)']);
    assert.deepEqual(errors(validate(head + substreams('./sub.spkg'))), []);
  });

  test('graph-cli’s own rules: handlers, NEAR account names', () => {
    assert.match(errors(validate(head + near(undefined, '')))[0], /^no-handlers: Mapping has no blockHandlers or receiptHandlers/);
    assert.match(errors(validate(head + near('      account: App.Near')))[0], /^invalid-near-account: NEAR account 'App.Near' is invalid/);
    assert.match(errors(validate(head + near('      account: a')))[0], /^invalid-near-account/);
  });
});

describe('one protocol per manifest (graph-cli validateDataSourceProtocolAndNetworks)', () => {
  test('an ethereum and a near data source conflict, at the second one’s kind', () => {
    const findings = validate(head + ethereum + near(), ABI);
    const conflict = findings.filter((f) => f.code === 'conflicting-protocols');
    assert.equal(conflict.length, 1, JSON.stringify(errors(findings)));
    assert.equal(conflict[0].severity, 'error');
    assert.match(conflict[0].message, /'near' here, 'ethereum' in dataSources\[0\]/);
    assert.equal(
      findings.some((f) => f.severity === 'info'),
      false,
      'no "left to graph-cli" line any more',
    );
  });

  test('a near template in an Ethereum manifest conflicts; a file template does not', () => {
    const nearTemplate = '\ntemplates:\n' + near().replace('    source:\n      account: app.good-morning.near\n      startBlock: 10\n', '');
    assert.equal(validate(head + ethereum + nearTemplate, ABI).filter((f) => f.code === 'conflicting-protocols').length, 1);
    const fileTemplate = `\ntemplates:\n  - kind: file/ipfs\n    name: Meta\n    mapping:\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      file: ./src/mapping.ts\n      handler: handleBlock\n      entities:\n        - Block\n`;
    assert.deepEqual(
      validate(head.replace('1.0.0', '1.0.0') + ethereum + fileTemplate, ABI).filter((f) => f.code === 'conflicting-protocols'),
      [],
    );
  });

  test('templates exist only for Ethereum in graph-cli', () => {
    const nearTemplate = '\ntemplates:\n' + near().replace('    name: Near', '    name: NearTemplate');
    assert.deepEqual(
      validate(head + near() + nearTemplate)
        .filter((f) => f.severity === 'error')
        .map((f) => f.code),
      ['template-kind-unsupported'],
    );
  });
});

describe('subgraph composition (graph-node validate_subgraph_datasources)', () => {
  const composed = (n: number, id = (i: number) => `QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLi${'ABCDEFGH'[i]}`) =>
    Array.from(
      { length: n },
      (_, i) =>
        `  - kind: subgraph\n    name: Src${i}\n    network: mainnet\n    source:\n      address: ${id(i)}\n${mapping('      handlers:\n        - handler: handleBlock\n          entity: Block\n')}`,
    ).join('');
  test('needs specVersion 1.3.0, at most five sources, each once', () => {
    assert.deepEqual(
      validate(head + composed(1))
        .filter((f) => f.severity === 'error')
        .map((f) => f.code),
      ['spec-version-too-low'],
    );
    const v13 = head.replace('1.0.0', '1.3.0');
    assert.deepEqual(errors(validate(v13 + composed(5))), []);
    assert.deepEqual(
      validate(v13 + composed(6))
        .filter((f) => f.severity === 'error')
        .map((f) => f.code),
      ['too-many-subgraph-sources'],
    );
    assert.deepEqual(
      validate(v13 + composed(2, () => 'QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM'))
        .filter((f) => f.severity === 'error')
        .map((f) => f.code),
      ['duplicate-subgraph-source'],
    );
  });
});

describe('the editor’s key suggestions follow the data source’s protocol', () => {
  test('a near data source’s source takes account, not address', () => {
    const keys = manifestKeysAt(['dataSources', 0, 'source'], 'near').map((k) => k.key);
    assert.ok(keys.includes('account') && !keys.includes('address'), keys.join());
    assert.ok(manifestKeysAt(['dataSources', 0, 'source'], 'ethereum').some((k) => k.key === 'address'));
  });
});

test('every case above gives exactly the findings in protocols.findings.txt', () => {
  check(ROOT, 'subgraphs/protocols.findings.txt');
});

describe('the rules across data sources, at their edges', () => {
  /**
   * The rules protocols.ts applies across data sources, checked at their edges through
   * validateSubgraph: `ethereum/contract` is Ethereum (graph-cli's Protocol.normalizeName), items
   * without a protocol kind take no part, the no-handlers message names every handler list of the
   * protocol, the NEAR account rule (graph-cli's NearContract: 2 to 64 characters and its regex)
   * applies to NEAR data sources only, and subgraph composition counts data sources, not templates.
   * Small manifests written for these tests, in memory.
   */
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
});
