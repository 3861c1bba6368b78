/**
 * The pure parts of the editor's local graph-node: which node of the user's is the chain (chain
 * ids of network names, devnets on this machine, the setting's name), the name a local deploy
 * suggests, the placeholder deployment left out, and where a fatal indexing error lands.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPlaceholderDeployment } from '../../../../../src/core/localnode/status';
import { failedHandler, fatalErrorMessage, handlerSpanInManifest, handlerSpanInMapping, mappingOfHandler } from '../../../../../src/core/subgraph/graphnode/fatalError';
import { isProjectSource } from '../../../../../src/core/subgraph/copies';
import { chainFits, chainIdsOfNetwork, chooseChain, networkForChain, noFittingChainMessage, suggestSubgraphName } from '../../../../../src/core/subgraph/graphnode/localChain';

const anvil = { name: 'anvil', chainId: 31337, loopback: true };
const hardhatRemote = { name: 'shared hardhat', chainId: 31337, loopback: false };
const sepolia = { name: 'sepolia provider', chainId: 11155111, loopback: false };
const mainnet = { name: 'mainnet provider', chainId: 1, loopback: false };
const silent = { name: 'down', loopback: true };

test('network names map to their chain ids from the registry', () => {
  assert.deepEqual(chainIdsOfNetwork('mainnet'), [1]);
  assert.deepEqual(chainIdsOfNetwork('sepolia'), [11155111]);
  assert.deepEqual(chainIdsOfNetwork('no-such-network'), []);
});

test('a devnet on this machine fits any network; a remote node only its own chain', () => {
  assert.equal(chainFits(anvil, ['mainnet']), true);
  assert.equal(chainFits(anvil, ['sepolia']), true);
  assert.equal(chainFits({ ...anvil, chainId: 1337 }, ['mainnet']), true);
  assert.equal(chainFits(hardhatRemote, ['mainnet']), false, 'a devnet id elsewhere is not this machine’s devnet');
  assert.equal(chainFits(sepolia, ['sepolia']), true);
  assert.equal(chainFits(sepolia, ['mainnet']), false);
  assert.equal(chainFits(mainnet, ['mainnet', 'sepolia']), false, 'one chain cannot be two networks');
  assert.equal(chainFits(silent, ['mainnet']), false, 'a node that did not answer eth_chainId fits nothing');
  assert.equal(chainFits({ ...anvil, chainId: 5 }, []), false);
});

test('the chain: the named node, else the only one that fits, else ask, else none', () => {
  assert.deepEqual(chooseChain([anvil, sepolia], ['mainnet']), { kind: 'chosen', candidate: anvil });
  assert.deepEqual(chooseChain([anvil, sepolia], ['sepolia']), { kind: 'ask', candidates: [anvil, sepolia] });
  assert.deepEqual(chooseChain([mainnet, sepolia], ['sepolia']), { kind: 'chosen', candidate: sepolia });
  assert.deepEqual(chooseChain([mainnet, sepolia], ['gnosis']), { kind: 'none' });
  assert.deepEqual(chooseChain([], ['mainnet']), { kind: 'none' });
  // The setting wins over the rule, and is matched without regard to case.
  assert.deepEqual(chooseChain([anvil, sepolia], ['mainnet'], ' Sepolia Provider '), { kind: 'chosen', candidate: sepolia });
  assert.deepEqual(chooseChain([anvil], ['mainnet'], 'gone'), { kind: 'unknown', name: 'gone' });
});

test('several fitting nodes are all offered, in the Nodes view’s order; a silent or unfitting one never is', () => {
  const ganache = { name: 'ganache', chainId: 1337, loopback: true };
  const choice = chooseChain([sepolia, ganache, silent, hardhatRemote, anvil], ['mainnet']);
  assert.deepEqual(choice, { kind: 'ask', candidates: [ganache, anvil] });
  // No manifest yet: a devnet on this machine still fits; a remote node fits nothing.
  assert.deepEqual(chooseChain([mainnet, anvil], []), { kind: 'chosen', candidate: anvil });
  assert.deepEqual(chooseChain([mainnet], []), { kind: 'none' });
  // A blank setting is no setting: the rule decides.
  assert.deepEqual(chooseChain([anvil, sepolia], ['mainnet'], '   '), { kind: 'chosen', candidate: anvil });
  // A named node is taken even when it did not answer (its start then says why).
  assert.deepEqual(chooseChain([anvil, silent], ['mainnet'], 'down'), { kind: 'chosen', candidate: silent });
});

test('the "no fitting node" message names the networks wanted, the devnet ids and the setting', () => {
  const message = noFittingChainMessage(['gnosis', 'base'], 'chaindeck.localGraphNode.chain');
  assert.match(message, /the network gnosis, base of your subgraph\.yaml/);
  assert.match(message, /chain id 31337 or 1337/);
  assert.match(message, /name a node in chaindeck\.localGraphNode\.chain\.$/);
  assert.match(noFittingChainMessage([], 'x'), /chain id of your subgraphs\./);
  assert.doesNotMatch(message, /\n/);
});

test('a saved file redeploys its project only when it is the user’s source, not what tools write', () => {
  const manifest = '/home/u/build/token/subgraph.yaml';
  assert.equal(isProjectSource('/home/u/build/token/src/mapping.ts', manifest), true, 'a "build" folder above the project is the user’s');
  assert.equal(isProjectSource('/home/u/build/token/schema.graphql', manifest), true);
  assert.equal(isProjectSource('/home/u/build/token/subgraph.yaml', manifest), true);
  for (const written of ['build/subgraph.yaml', 'generated/schema.ts', 'node_modules/x/index.ts', 'dist/Token/Token.wasm', 'src/generated/a.ts'])
    assert.equal(isProjectSource(`/home/u/build/token/${written}`, manifest), false, written);
  assert.equal(isProjectSource('/home/u/build/token-2/src/mapping.ts', manifest), false, 'a sibling whose name starts the same');
  assert.equal(isProjectSource('/home/u/build/other.ts', manifest), false);
  assert.equal(isProjectSource('C:\\p\\token\\src\\m.ts', 'C:\\p\\token\\subgraph.yaml'), true);
});

test('the network gnd is given: the manifests’ own when the chain is it, else theirs for a devnet', () => {
  assert.equal(networkForChain(11155111, ['mainnet', 'sepolia']), 'sepolia');
  assert.equal(networkForChain(31337, ['mainnet']), 'mainnet');
  assert.equal(networkForChain(11155111, []), 'sepolia');
  assert.equal(networkForChain(undefined, []), 'mainnet');
});

test('the suggested name is one graph-node accepts, from package.json or the folder', () => {
  assert.equal(suggestSubgraphName('@acme/erc20-subgraph', 'x'), 'acme/erc20-subgraph');
  assert.equal(suggestSubgraphName(undefined, 'My Token Subgraph!'), 'My-Token-Subgraph');
  assert.equal(suggestSubgraphName('  ', 'demo'), 'demo');
  assert.equal(suggestSubgraphName(undefined, '...'), 'subgraph');
});

test('gnd’s own placeholder (a path) is told from real deployments (CIDs)', () => {
  assert.equal(isPlaceholderDeployment('/data/dev/build/subgraph.yaml'), true);
  assert.equal(isPlaceholderDeployment('QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN'), false);
  assert.equal(isPlaceholderDeployment('QmShort'), true);
});

const MANIFEST = `specVersion: 0.0.5
dataSources:
  - kind: ethereum
    name: Token
    mapping:
      eventHandlers:
        - event: Transfer(indexed address,indexed address,uint256)
          handler: handleTransfer
        - event: Approval(indexed address,indexed address,uint256)
          handler: "handleApproval" # quoted
      file: ./src/token.ts
templates:
  - kind: ethereum
    name: Pair
    mapping:
      eventHandlers:
        - event: Swap(uint256)
          handler: handleSwap
      file: ./src/pair.ts
`;

const ABORT = {
  message:
    'transaction 98a0: error while executing at wasm backtrace: 0: 0x2f4c - <unknown>!src/mapping/handleApproval: Mapping aborted at src/mapping.ts, line 9, column 47, with message: refusing the value 666 in handler `handleApproval` at block #4 (d4f9)',
  block: 4,
};

test('the failed handler: the index node’s field, else the one its message names', () => {
  assert.equal(failedHandler(ABORT), 'handleApproval');
  assert.equal(failedHandler({ ...ABORT, handler: 'handleTransfer' }), 'handleTransfer');
  assert.equal(failedHandler({ message: 'store error: deadlock' }), undefined);
});

test('a fatal error lands on the handler’s line of the manifest and on its function in the mapping', () => {
  const span = handlerSpanInManifest(MANIFEST, 'handleApproval');
  assert.equal(MANIFEST.slice(span.start, span.end), 'handleApproval');
  assert.match(MANIFEST.slice(0, span.start).split('\n').pop()!, /handler: "$/);
  const swap = handlerSpanInManifest(MANIFEST, 'handleSwap');
  assert.equal(MANIFEST.slice(swap.start, swap.end), 'handleSwap');
  // Unknown or absent handler: the first line.
  assert.deepEqual(handlerSpanInManifest(MANIFEST, 'handleNothing'), { start: 0, end: 'specVersion: 0.0.5'.length });
  assert.deepEqual(handlerSpanInManifest(MANIFEST, undefined), { start: 0, end: 'specVersion: 0.0.5'.length });
  // A handler that is a prefix of another is not found inside it.
  assert.deepEqual(handlerSpanInManifest(MANIFEST, 'handleTrans'), { start: 0, end: 'specVersion: 0.0.5'.length });

  assert.equal(mappingOfHandler(MANIFEST, 'handleApproval'), './src/token.ts');
  assert.equal(mappingOfHandler(MANIFEST, 'handleSwap'), './src/pair.ts');
  assert.equal(mappingOfHandler(MANIFEST, 'handleNothing'), undefined);

  const mapping = '// export function handleApproval(old)\nexport function handleTransfer(e: T): void {}\nexport function handleApproval(e: A): void {}\n';
  const inMapping = handlerSpanInMapping(mapping, 'handleApproval')!;
  assert.equal(mapping.slice(inMapping.start, inMapping.end), 'handleApproval');
  assert.equal(mapping.slice(0, inMapping.start).split('\n').length, 3, 'the commented-out one is skipped');
  assert.equal(handlerSpanInMapping(mapping, 'handleSwap'), undefined);
});

test('the message says the subgraph, handler and block, on one line', () => {
  assert.equal(fatalErrorMessage('acme/token', { message: 'boom\n  at x', handler: 'handleTransfer', block: 12 }), 'acme/token stopped indexing in handleTransfer at block 12: boom at x');
  assert.match(fatalErrorMessage('acme/token', ABORT), /^acme\/token stopped indexing in handleApproval at block 4: transaction/);
  assert.equal(fatalErrorMessage('a', { message: 'lost' }), 'a stopped indexing: lost');
});
