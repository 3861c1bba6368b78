// The graph CLI's command lines: exact argument vectors, trimmed inputs, and every input problem
// in the words the form shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  addressProblem,
  displayCommand,
  graphBuildCommand,
  graphCodegenCommand,
  graphDeployCommand,
  graphInitCommand,
  GraphInputError,
  normalizeSlug,
  validateGraphDeploy,
  validateGraphInit,
  type GraphDeployInput,
  type GraphInitInput,
} from '../../../../../src/core/subgraph/graphcli/commands';
import { repoPath } from '../../../../support/paths';

const ABI = repoPath('test/fixtures/subgraphs/tutorial/abis/ERC20.json');
const ADDRESS = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const cwd = mkdtempSync(path.join(tmpdir(), 'chaindeck-commands-'));

function init(over: Partial<GraphInitInput> = {}): GraphInitInput {
  return { slug: 'erc20', directory: 'approvals', contractAddress: ADDRESS, abiPath: ABI, network: 'mainnet', contractName: 'ERC20', startBlock: 1, ...over };
}

function deploy(over: Partial<GraphDeployInput> = {}): GraphDeployInput {
  return { name: 'team/sub', versionLabel: 'v1', deployUrl: 'http://h/{key}/deploy', ipfsUrl: 'http://ipfs:5001', useDeployKey: false, ...over };
}

test('GraphInputError: its name, and a message of every problem', () => {
  const err = new GraphInputError([
    { field: 'a', message: 'First.' },
    { field: 'b', message: 'Second.' },
  ]);
  assert.equal(err.name, 'GraphInputError');
  assert.equal(err.message, 'First. Second.');
});

test('displayCommand quotes what a shell would split, quotes included', () => {
  assert.equal(displayCommand({ args: ['deploy', "it's here", 'http://h/{key}'] }), `graph deploy 'it'\\''s here' http://h/{key}`);
});

test('normalizeSlug: a run of spaces becomes one dash', () => {
  assert.equal(normalizeSlug('My  Team\tGraph'), 'my-team-graph');
});

test('addressProblem: the whole trimmed text must be an address', () => {
  assert.equal(addressProblem(`  ${ADDRESS}  `), undefined);
  const message = (text: string) =>
    `Contract address '${text}' is not an address: 0x followed by 40 hex digits. For a proxy, enter the proxy's address (its events are indexed) and use the implementation's ABI.`;
  assert.equal(addressProblem(`x${ADDRESS}`), message(`x${ADDRESS}`));
  assert.equal(addressProblem(`${ADDRESS}0`), message(`${ADDRESS}0`));
});

test('validateGraphInit: every problem in words, padded inputs accepted', () => {
  mkdirSync(path.join(cwd, 'taken'), { recursive: true });
  assert.deepEqual(validateGraphInit(init({ network: ' mainnet ', contractName: ' ERC20 ', startBlock: ' 5 ' }), cwd), []);
  assert.deepEqual(validateGraphInit(init({ protocol: 'near', directory: '  ', slug: '' }), cwd), [
    { field: 'protocol', message: "Scaffolding from a contract with a local ABI works for protocol 'ethereum' (EVM chains), not 'near'." },
    { field: 'directory', message: 'Choose the folder to create the subgraph in.' },
    { field: 'slug', message: 'The subgraph slug is empty once reduced to a-z, 0-9, - and _: enter a slug.' },
  ]);
  assert.deepEqual(validateGraphInit(init({ directory: 'taken', slug: '!!', network: 'mainnet!', contractName: 'ERC-20', startBlock: '5x' }), cwd), [
    { field: 'directory', message: 'Folder taken already exists: choose a new folder (graph init creates it).' },
    { field: 'slug', message: 'The subgraph slug is empty once reduced to a-z, 0-9, - and _: enter a slug.' },
    { field: 'network', message: "Network 'mainnet!' is not a network name (e.g. mainnet, sepolia, matic)." },
    {
      field: 'contractName',
      message: "Contract name 'ERC-20' must be an identifier (letters, digits, _; not starting with a digit): it names the data source and generated classes.",
    },
    { field: 'startBlock', message: "Start block '5x' must be a whole block number (0 or more)." },
  ]);
});

test('graphInitCommand: trimmed inputs, the slug note only when the slug changes, --index-events unless turned off', () => {
  const command = graphInitCommand(
    init({ slug: ' erc20 ', directory: ' approvals ', contractAddress: ` ${ADDRESS} `, network: ' mainnet ', contractName: ' ERC20 ', startBlock: ' 7 ' }),
    cwd,
  );
  assert.deepEqual(command, {
    subcommand: 'init',
    args: [
      'init',
      'erc20',
      'approvals',
      '--protocol',
      'ethereum',
      '--from-contract',
      ADDRESS,
      '--abi',
      ABI,
      '--network',
      'mainnet',
      '--contract-name',
      'ERC20',
      '--start-block',
      '7',
      '--index-events',
      '--skip-install',
      '--skip-git',
    ],
    manifest: path.join('approvals', 'subgraph.yaml'),
    notes: [],
  });
  const off = graphInitCommand(init({ slug: 'My Graph', indexEvents: false }), cwd);
  assert.deepEqual(off.notes, ["The graph CLI turns the slug 'My Graph' into 'my-graph'."]);
  assert.deepEqual(off.args.slice(13), ['--start-block', '1', '--skip-install', '--skip-git']);
  assert.equal(graphInitCommand(init({ indexEvents: true }), cwd).args.includes('--index-events'), true);
});

test('codegen and build: the manifest argument only when it is not subgraph.yaml', () => {
  assert.deepEqual(graphCodegenCommand(), { subcommand: 'codegen', args: ['codegen', '--skip-migrations'], manifest: 'subgraph.yaml', notes: [] });
  assert.deepEqual(graphBuildCommand('other.yaml'), { subcommand: 'build', args: ['build', 'other.yaml', '--skip-migrations'], manifest: 'other.yaml', notes: [] });
  assert.deepEqual(graphBuildCommand(), { subcommand: 'build', args: ['build', '--skip-migrations'], manifest: 'subgraph.yaml', notes: [] });
});

test('validateGraphDeploy: every problem, with its field', () => {
  assert.deepEqual(validateGraphDeploy(deploy({ deployUrl: 'http://{key}' })), []);
  assert.deepEqual(validateGraphDeploy(deploy({ versionLabel: 'x'.repeat(100) })), []);
  assert.deepEqual(validateGraphDeploy(deploy({ name: 'a//b', versionLabel: '  ', deployUrl: 'nope', ipfsUrl: 'ftp://ipfs' })), [
    { field: 'name', message: "Subgraph name 'a//b': use letters, digits, '-', '_' and '/' between parts." },
    { field: 'versionLabel', message: 'Enter a version label (e.g. v0.0.1).' },
    { field: 'deployUrl', message: 'The deploy URL is not a valid URL.' },
    { field: 'ipfsUrl', message: 'The IPFS URL must be an http(s) URL.' },
  ]);
  const long = 'x'.repeat(101);
  assert.deepEqual(validateGraphDeploy(deploy({ versionLabel: long })), [
    { field: 'versionLabel', message: `Version label '${long}': no spaces or braces, at most 100 characters (it becomes part of the query URL).` },
  ]);
});

test('graphDeployCommand: the exact vector, without a deploy key unless asked', () => {
  assert.deepEqual(graphDeployCommand(deploy()), {
    subcommand: 'deploy',
    args: ['deploy', '--node', 'http://h/{key}/deploy', '--ipfs', 'http://ipfs:5001', 'team/sub', '--version-label', 'v1', '--skip-migrations'],
    manifest: 'subgraph.yaml',
    notes: [],
    subgraphName: 'team/sub',
  });
});
