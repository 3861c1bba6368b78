import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  DEPLOY_KEY_PLACEHOLDER,
  displayCommand,
  graphBuildCommand,
  graphCodegenCommand,
  graphDeployCommand,
  graphInitCommand,
  GraphInputError,
  normalizeSlug,
  validateGraphInit,
  type GraphInitInput,
} from '../../../../../src/core/subgraph/graphcli/commands';
import { extractProblems, judgeGraphRun } from '../../../../../src/core/subgraph/graphcli/output';
import { graphProcess, LineRedactor } from '../../../../../src/core/subgraph/graphcli/launch';
import { repoPath } from '../../../../support/paths';

const ACCESS_KEY = '9f2a6c1e4b7d80a35c6e1f2b3a4d5e6f';
const DEPLOY_KEY = 'dk_live_5e6f7a8b9c0d1e2f';
const TUTORIAL_ABI = repoPath('test/fixtures/subgraphs/tutorial/abis/ERC20.json');

function initInput(_cwd: string, over: Partial<GraphInitInput> = {}): GraphInitInput {
  return {
    slug: 'erc20-approvals',
    directory: 'approvals',
    contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    abiPath: TUTORIAL_ABI,
    network: 'mainnet',
    contractName: 'ERC20',
    startBlock: 6082465,
    ...over,
  };
}

test('graph init: every prompt answered by a flag, as an argument vector', () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'graph-init-'));
  const command = graphInitCommand(initInput(cwd), cwd);
  assert.deepEqual(command.args, [
    'init',
    'erc20-approvals',
    'approvals',
    '--protocol',
    'ethereum',
    '--from-contract',
    '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    '--abi',
    TUTORIAL_ABI,
    '--network',
    'mainnet',
    '--contract-name',
    'ERC20',
    '--start-block',
    '6082465',
    '--index-events',
    '--skip-install',
    '--skip-git',
  ]);
  assert.equal(command.manifest, path.join('approvals', 'subgraph.yaml'));
});

test('graph init: an empty slug takes the folder name, since the CLI would fall back to prompting', () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'graph-init-'));
  const command = graphInitCommand(initInput(cwd, { slug: '', directory: 'My Approvals' }), cwd);
  assert.equal(command.args[1], 'my-approvals');
  assert.match(command.notes[0], /No slug given: using 'my-approvals'/);
  // The CLI drops '/' from slugs: say so rather than let it surprise.
  assert.equal(normalizeSlug('Team/ERC20 Approvals'), 'teamerc20-approvals');
  assert.match(graphInitCommand(initInput(cwd, { slug: 'Team/ERC20' }), cwd).notes[0], /turns the slug 'Team\/ERC20' into 'teamerc20'/);
});

test('graph init: bad inputs are all reported before the CLI runs', () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'graph-init-'));
  mkdirSync(path.join(cwd, 'exists'));
  writeFileSync(path.join(cwd, 'artifact.json'), JSON.stringify({ abi: [] }));
  writeFileSync(path.join(cwd, 'no-events.json'), JSON.stringify([{ type: 'function', name: 'f', inputs: [], outputs: [] }]));
  const problems = validateGraphInit(
    initInput(cwd, { directory: 'exists', contractAddress: '0x1234', contractName: '2Token', startBlock: '6082465.5', network: 'Main Net', abiPath: 'artifact.json' }),
    cwd,
  );
  assert.deepEqual(
    problems.map((p) => p.field),
    ['directory', 'contractAddress', 'abiPath', 'network', 'contractName', 'startBlock'],
  );
  assert.match(problems[1].message, /proxy/);
  assert.match(problems[2].message, /"abi" array/);
  assert.match(validateGraphInit(initInput(cwd, { abiPath: 'no-events.json' }), cwd)[0].message, /declares no events/);
  // A mixed-case address must carry a right EIP-55 checksum (the CLI does not check it).
  assert.match(validateGraphInit(initInput(cwd, { contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB49' }), cwd)[0].message, /checksum/);
  assert.deepEqual(validateGraphInit(initInput(cwd, { contractAddress: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' }), cwd), []);
  assert.throws(() => graphInitCommand(initInput(cwd, { contractName: 'bad name' }), cwd), GraphInputError);
});

test('codegen and build skip migrations, which would rewrite subgraph.yaml', () => {
  assert.deepEqual(graphCodegenCommand().args, ['codegen', '--skip-migrations']);
  assert.deepEqual(graphBuildCommand().args, ['build', '--skip-migrations']);
  assert.deepEqual(graphBuildCommand('other.yaml').args, ['build', 'other.yaml', '--skip-migrations']);
});

test('graph deploy: placeholders instead of keys on the command line and in what is shown', () => {
  const command = graphDeployCommand({
    name: 'my/erc20',
    versionLabel: 'v0.0.1',
    deployUrl: 'https://d.example.com/{key}/deploy',
    ipfsUrl: 'https://i.example.com/{key}/api/v0',
    useDeployKey: true,
  });
  assert.deepEqual(command.args, [
    'deploy',
    '--node',
    'https://d.example.com/{key}/deploy',
    '--ipfs',
    'https://i.example.com/{key}/api/v0',
    'my/erc20',
    '--version-label',
    'v0.0.1',
    '--skip-migrations',
    '--deploy-key',
    DEPLOY_KEY_PLACEHOLDER,
  ]);
  const proc = graphProcess(command, { accessKey: ACCESS_KEY, deployKey: DEPLOY_KEY }, { cli: '/opt/graph-cli/bin/run.js', env: { PATH: '/usr/bin' } });
  const visible = [proc.file, ...proc.args, proc.display, ...Object.values(proc.env)].join('\n');
  assert.ok(!visible.includes(ACCESS_KEY) && !visible.includes(DEPLOY_KEY), 'a key reached the command line or the environment');
  assert.equal(
    proc.display,
    'graph deploy --node https://d.example.com/{key}/deploy --ipfs https://i.example.com/{key}/api/v0 my/erc20 --version-label v0.0.1 --skip-migrations --deploy-key {deployKey}',
  );
  assert.deepEqual(JSON.parse(proc.stdin), { accessKey: ACCESS_KEY, deployKey: DEPLOY_KEY });
  assert.equal(proc.env.FORCE_COLOR, '0');
  // Without a deploy key the placeholder is absent and the key is not sent at all.
  const open = graphProcess(
    graphDeployCommand({ name: 'a', versionLabel: 'v1', deployUrl: 'http://127.0.0.1:8020/', ipfsUrl: 'http://127.0.0.1:5001', useDeployKey: false }),
    { deployKey: DEPLOY_KEY },
    { cli: '/x/run.js' },
  );
  assert.deepEqual(JSON.parse(open.stdin), {});
});

test('graph deploy: inputs checked, missing secrets refused before starting', () => {
  assert.throws(
    () => graphDeployCommand({ name: 'bad name', versionLabel: 'v 1', deployUrl: 'not a url', ipfsUrl: 'ftp://x', useDeployKey: false }),
    (err: GraphInputError) => err.problems.map((p) => p.field).join() === 'name,versionLabel,deployUrl,ipfsUrl',
  );
  const command = graphDeployCommand({ name: 'a', versionLabel: 'v1', deployUrl: 'https://d.example.com/{key}', ipfsUrl: 'https://i.example.com', useDeployKey: true });
  assert.throws(
    () => graphProcess(command, {}, { cli: '/x/run.js' }),
    (err: GraphInputError) => err.problems.map((p) => p.field).join() === 'accessKey,deployKey',
  );
  assert.equal(displayCommand({ args: ['deploy', 'it has spaces'] }), "graph deploy 'it has spaces'");
});

test('output is redacted line by line, even when a key is split across chunks', () => {
  let out = '';
  const r = new LineRedactor([ACCESS_KEY], (t) => (out += t));
  r.push(`Deploying to Graph node http://127.0.0.1:8020/${ACCESS_KEY.slice(0, 10)}`);
  r.push(`${ACCESS_KEY.slice(10)}/deploy\n\u001b[?25lDone`);
  r.end();
  assert.equal(out, 'Deploying to Graph node http://127.0.0.1:8020/***/deploy\nDone');
});

// --- the CLI's own texts (shared/notes/graph-cli.md, and captured from graph-cli 0.98.1) ----

const SUCCESS = `Build completed: QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM

- Deploying to Graph node http://127.0.0.1:8020/
Deployed to http://127.0.0.1:8000/subgraphs/name/my/erc20-approvals/graphql

Subgraph endpoints:
Queries (HTTP):     http://127.0.0.1:8000/subgraphs/name/my/erc20-approvals
`;
const ctx = { manifest: 'subgraph.yaml', shownDeployUrl: 'http://127.0.0.1:8020/', shownIpfsUrl: 'http://127.0.0.1:5001', subgraphName: 'my/erc20-approvals' };

test('deploy success is read from the printed lines', () => {
  const outcome = judgeGraphRun('deploy', 0, SUCCESS, ctx);
  assert.equal(outcome.ok, true);
  assert.equal(outcome.deployedTo, 'http://127.0.0.1:8000/subgraphs/name/my/erc20-approvals/graphql');
  assert.equal(outcome.queriesUrl, 'http://127.0.0.1:8000/subgraphs/name/my/erc20-approvals');
  assert.equal(outcome.ipfsHash, 'QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM');
});

test('every deploy failure of the note becomes a message that says what to do', () => {
  const cases: [string, number | null, RegExp, boolean?][] = [
    ['✖ HTTP error deploying the subgraph 401', 1, /needs a deploy key, or the access key in the deploy URL is wrong/],
    ['✖ HTTP error deploying the subgraph 401', 1, /refused the deploy key .*wrong/, true],
    ['✖ HTTP error deploying the subgraph 404', 1, /deploy URL is wrong, or the subgraph 'my\/erc20-approvals' was not created .*graph create/],
    ['✖ HTTP error deploying the subgraph 500', 1, /failed \(HTTP 500\)\. Try again later/],
    ['✖ HTTP error deploying the subgraph ECONNREFUSED', 1, /Cannot reach graph-node at http:\/\/127\.0\.0\.1:8020\/: connection refused/],
    ['✖ Failed to deploy to Graph node http://127.0.0.1:8020/: subgraph name not found: my/erc20-approvals', 1, /refused the deployment: subgraph name not found: my\/erc20-approvals$/],
    ['✖ Failed to deploy to Graph node http://127.0.0.1:8020/: auth failure\nYou may need to authenticate first.', 1, /auth failure Set the deploy key/],
    ['✖ Failed to upload subgraph to IPFS: Failed to upload file to IPFS: fetch failed', 1, /Cannot reach the IPFS node at http:\/\/127\.0\.0\.1:5001 \(fetch failed\)/],
    [
      "Build completed: QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM\nTypeError: Cannot read properties of undefined (reading 'charAt')",
      0,
      /without a deployment .*crashed \(with exit code 0\): the subgraph is not deployed/,
    ],
  ];
  for (const [output, code, message, sentKey] of cases) {
    const outcome = judgeGraphRun('deploy', code, output, { ...ctx, sentDeployKey: sentKey });
    assert.equal(outcome.ok, false, output);
    assert.match(outcome.summary, message, output);
  }
});

test('build, codegen and init are judged by their success lines, not the exit code alone', () => {
  assert.equal(judgeGraphRun('build', 0, '\nBuild completed: build/subgraph.yaml\n', ctx).summary, 'Build completed: build/subgraph.yaml');
  assert.equal(judgeGraphRun('build', 0, '- Compile subgraph\n', ctx).ok, false);
  assert.equal(judgeGraphRun('codegen', 0, '\nTypes generated successfully\n\n', ctx).ok, true);
  assert.equal(judgeGraphRun('init', 0, '\nSubgraph erc20-approvals created in approvals\n', ctx).summary, 'Subgraph erc20-approvals created in approvals.');
  assert.match(judgeGraphRun('init', 13, '? Network …\n', ctx).summary, /graph init failed \(exit code 13\)/);
});

test('problems: YAML positions, AssemblyScript errors, manifest key paths, missing handlers and files', () => {
  const yaml = `    YAMLException: bad indentation of a mapping entry (10:6)

     8 |     name: ERC20
     9 |     network: mainnet
    10 |      source:
    -----------^`;
  assert.deepEqual(extractProblems(yaml, 'subgraph.yaml'), [{ severity: 'error', code: 'YAML', message: 'bad indentation of a mapping entry', file: 'subgraph.yaml', line: 10, column: 6 }]);

  const asc = `- Compile subgraph
ERROR TS2305: Module 'generated/schema' has no exported member 'Nope'.

 import { ApprovalQuery, Nope } from "../generated/schema";
                         ~~~~
 in src/mapping.ts(2,10)

✖ Failed to compile subgraph: Failed to compile data source mapping: 1 compile error(s)`;
  assert.deepEqual(extractProblems(asc, 'subgraph.yaml'), [
    { severity: 'error', code: 'TS2305', message: "Module 'generated/schema' has no exported member 'Nope'.", file: 'src/mapping.ts', line: 2, column: 10 },
  ]);

  const manifest = `✖ Failed to load subgraph from subgraph.yaml: Error in subgraph.yaml:

  Path: dataSources > 0 > eventHandlers > 0
  Event with signature 'Approval(address,address,uint256)' not present in ABI 'ERC20'.
  Available events:
  - Approval(indexed address,indexed address,uint256)

  Path: dataSources > 0 > mapping > abis > 0 > file
  File does not exist: abis/ERC20.json
Error: EEXIT: 1`;
  assert.deepEqual(extractProblems(manifest, 'subgraph.yaml'), [
    {
      severity: 'error',
      file: 'subgraph.yaml',
      keyPath: ['dataSources', 0, 'eventHandlers', 0],
      message: "Event with signature 'Approval(address,address,uint256)' not present in ABI 'ERC20'.\nAvailable events:\n- Approval(indexed address,indexed address,uint256)",
    },
    { severity: 'error', file: 'subgraph.yaml', keyPath: ['dataSources', 0, 'mapping', 'abis', 0, 'file'], message: 'File does not exist: abis/ERC20.json' },
  ]);

  const handlers = `✖ Failed to compile subgraph: Failed to compile data source mapping: \n\tMissing handlers in WASM: handleApprovalX\nError: Failed to compile data source mapping: \n\tMissing handlers in WASM: handleApprovalX`;
  const missing = extractProblems(handlers, 'subgraph.yaml');
  assert.equal(missing.length, 1, 'printed twice, reported once');
  assert.equal(missing[0].value, 'handleApprovalX');
  const outcome = judgeGraphRun('build', 1, handlers, ctx);
  assert.match(outcome.summary, /graph build failed \(exit code 1\): 1 problem in the subgraph: Missing handlers in WASM: handleApprovalX/);
});

test('the captured outputs of the real CLI parse the same way', () => {
  // Captured from graph-cli 0.98.1 (FORCE_COLOR=0): a tab in the manifest, during codegen.
  const tab = readFileSync(repoPath('test/fixtures/graph/outputs/yaml-tab.txt'), 'utf8');
  assert.deepEqual(
    extractProblems(tab, 'subgraph.yaml').map((p) => [p.line, p.column, p.message]),
    [[8, 1, 'tab characters must not be used in indentation']],
  );
});
