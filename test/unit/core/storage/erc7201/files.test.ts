/**
 * Namespaces read from each kind of compiler file, for Points (an OpenZeppelin 5 upgradeable
 * ERC-20 with a namespace of its own): solc's standard-JSON output, a Hardhat 2 build-info,
 * Hardhat 3's `.output.json`, and a Foundry artifact with its AST (the bases' namespaces found
 * through its imports in the artifacts beside it). A file without an AST whose sources use the
 * tag says how to get one.
 */
import { AbiCoder, keccak256, toUtf8Bytes } from 'ethers';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadProjectLayouts, readLayoutFile, selectLayout, type ContractLayout } from '../../../../../src/core/storage/layout';
import { compileFixture, writeArtifacts } from '../../../../support/solidity';

const SOURCE = 'contracts/Points.sol';

/** EIP-7201's formula, written out with the ABI coder as the EIP writes it. */
function root(id: string): string {
  const inner = BigInt(keccak256(toUtf8Bytes(id))) - 1n;
  return (BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['uint256'], [inner]))) & ~0xffn).toString(10);
}

const EXPECTED = [
  ['erc7201:openzeppelin.storage.Initializable', 'struct Initializable.InitializableStorage', root('openzeppelin.storage.Initializable')],
  ['erc7201:openzeppelin.storage.ERC20', 'struct ERC20Upgradeable.ERC20Storage', root('openzeppelin.storage.ERC20')],
  ['erc7201:openzeppelin.storage.Ownable', 'struct OwnableUpgradeable.OwnableStorage', root('openzeppelin.storage.Ownable')],
  ['erc7201:example.points.main', 'struct Points.MainStorage', root('example.points.main')],
];

function assertPointsNamespaces(layout: ContractLayout): void {
  assert.deepEqual(
    layout.storage.map((v) => [v.label, v.type, v.slot]),
    EXPECTED,
  );
  assert.equal(layout.notes, undefined);
  const main = layout.types[layout.storage[3].typeId];
  assert.deepEqual(
    main.members!.map((m) => [m.label, m.slot, m.offset, layout.types[m.type].label]),
    [
      ['season', '0', 0, 'uint64'],
      ['open', '0', 8, 'bool'],
      ['keeper', '0', 9, 'address'],
      ['scores', '1', 0, 'uint256[]'],
      ['bonus', '2', 0, 'mapping(address => uint256)'],
      ['motto', '3', 0, 'string'],
    ],
  );
  const erc20 = layout.types[layout.storage[1].typeId];
  assert.deepEqual(
    erc20.members!.map((m) => [m.label, m.slot, layout.types[m.type].label]),
    [
      ['_balances', '0', 'mapping(address => uint256)'],
      ['_allowances', '1', 'mapping(address => mapping(address => uint256))'],
      ['_totalSupply', '2', 'uint256'],
      ['_name', '3', 'string'],
      ['_symbol', '4', 'string'],
    ],
  );
  const init = layout.types[layout.storage[0].typeId];
  assert.deepEqual(
    init.members!.map((m) => [m.label, m.slot, m.offset]),
    [
      ['_initialized', '0', 0],
      ['_initializing', '0', 8],
    ],
  );
}

describe('namespaces from compiler files', () => {
  let dir: string;
  let files: ReturnType<typeof writeArtifacts>;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-erc7201-'));
    files = writeArtifacts(dir, compileFixture('Points.sol'), SOURCE, 'Points');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('solc standard-JSON output', () => assertPointsNamespaces(selectLayout(readLayoutFile(files.solcOutput).layouts, 'Points', files.solcOutput)));
  test('Hardhat 2 build-info', () => assertPointsNamespaces(selectLayout(readLayoutFile(files.hardhat2).layouts, 'Points', files.hardhat2)));
  test('Hardhat 3 build-info output', () => assertPointsNamespaces(selectLayout(readLayoutFile(files.hardhat3).layouts, 'Points', files.hardhat3)));
  test('Foundry artifact with its AST, bases found through its imports', () => assertPointsNamespaces(readLayoutFile(files.foundry).layouts[0]));
  test('a project folder: Foundry and Hardhat alike', () => {
    const all = loadProjectLayouts(dir).filter((l) => l.contractName === 'Points');
    assert.equal(all.length, 3); // Hardhat 2, Hardhat 3, Foundry
    for (const l of all) assertPointsNamespaces(l);
  });

  test('a build-info without ASTs whose sources use the tag says how to get them', () => {
    for (const file of [files.hardhat2, files.hardhat3]) {
      const json = JSON.parse(readFileSync(file, 'utf8'));
      for (const s of Object.values(json.output.sources as Record<string, { ast?: unknown }>)) delete s.ast;
      const bare = file.replace(/\.json$/, '.bare.json').replace('.output.bare.json', '.bare.output.json');
      writeFileSync(bare, JSON.stringify(json));
      if (file === files.hardhat3) writeFileSync(bare.replace('.output.json', '.json'), readFileSync(files.hardhat3Input));
      const points = selectLayout(readLayoutFile(bare).layouts, 'Points', bare);
      assert.deepEqual(points.storage, []);
      assert.deepEqual(points.notes, [
        'ERC-7201 namespaces are not decoded: the file carries no AST though its sources use @custom:storage-location; add "ast" to the compiler\'s outputSelection ({"*": {"": ["ast"]}})',
      ]);
    }
  });

  test('a solc output without ASTs says how to get them when its metadata carries the sources (useLiteralContent), and nothing when it does not', () => {
    const json = JSON.parse(readFileSync(files.solcOutput, 'utf8'));
    for (const s of Object.values(json.output?.sources ?? json.sources) as { ast?: unknown }[]) delete s.ast;
    const bare = path.join(dir, 'solc-bare.json');
    writeFileSync(bare, JSON.stringify(json));
    assert.equal(selectLayout(readLayoutFile(bare).layouts, 'Points', bare).notes, undefined);
    const points = json.contracts[SOURCE].Points;
    const metadata = JSON.parse(points.metadata);
    metadata.sources[SOURCE].content = readFileSync(path.join(__dirname, '../../../../fixtures/solidity/Points.sol'), 'utf8');
    points.metadata = JSON.stringify(metadata);
    writeFileSync(bare, JSON.stringify(json));
    assert.match(selectLayout(readLayoutFile(bare).layouts, 'Points', bare).notes?.[0] ?? '', /carries no AST .* add "ast" to the compiler's outputSelection/);
  });

  test('a Foundry artifact without its AST says to build with --ast when the sources use the tag', () => {
    const project = path.join(dir, 'forge');
    const artifact = path.join(project, 'out', 'Points.sol', 'Points.json');
    mkdirSync(path.dirname(artifact), { recursive: true });
    const json = JSON.parse(readFileSync(files.foundry, 'utf8'));
    delete json.ast;
    writeFileSync(artifact, JSON.stringify(json));
    // The sources are not on disk: nothing is known of them, nothing said.
    assert.equal(readLayoutFile(artifact).layouts[0].notes, undefined);
    mkdirSync(path.join(project, 'contracts'));
    writeFileSync(path.join(project, SOURCE), readFileSync(path.join(__dirname, '../../../../fixtures/solidity/Points.sol')));
    assert.deepEqual(readLayoutFile(artifact).layouts[0].notes, [
      'ERC-7201 namespaces are not decoded: the file carries no AST though its sources use @custom:storage-location; build with forge build --ast',
    ]);
  });
});
