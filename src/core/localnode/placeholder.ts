/**
 * `gnd dev` always deploys one manifest of its own (as subgraph-0) before it serves anything. It
 * gets a placeholder that never does work: a data source on the configured network at the zero
 * address, for an event nothing emits, from the chain head on, with the empty wasm module as its
 * mapping (graph-node only instantiates a mapping when a trigger matches).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/** The smallest valid wasm module: its magic number and version. */
const EMPTY_WASM = Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/** The placeholder manifest's description: it also tells a data folder an earlier Chaindeck made. */
export const PLACEHOLDER_DESCRIPTION = "Placeholder that gnd dev needs; Chaindeck's local graph-node serves the subgraphs deployed to it.";

function manifest(network: string, startBlock: number): string {
  return `specVersion: 0.0.5
description: ${PLACEHOLDER_DESCRIPTION}
schema:
  file: ./schema.graphql
dataSources:
  - kind: ethereum
    name: Placeholder
    network: ${JSON.stringify(network)}
    source:
      address: "0x0000000000000000000000000000000000000000"
      abi: Placeholder
      startBlock: ${startBlock}
    mapping:
      kind: ethereum/events
      apiVersion: 0.0.7
      language: wasm/assemblyscript
      entities:
        - Placeholder
      abis:
        - name: Placeholder
          file: ./Placeholder.json
      eventHandlers:
        - event: Placeholder()
          handler: handlePlaceholder
      file: ./placeholder.wasm
`;
}

/** Where the placeholder's manifest is in a data folder: gnd's `--manifests`, and how a gnd of the folder is known. */
export const placeholderManifest = (dataDir: string) => path.join(dataDir, 'dev', 'subgraph.yaml');

/** Writes the placeholder (a manifest and its build/) into `dir`; returns the manifest's path for `--manifests`. */
export async function writePlaceholder(dir: string, network: string, startBlock: number): Promise<string> {
  const build = path.join(dir, 'build');
  await mkdir(build, { recursive: true });
  const files: Record<string, string | Uint8Array> = {
    'schema.graphql': 'type Placeholder @entity(immutable: true) {\n  id: ID!\n}\n',
    'Placeholder.json': JSON.stringify([{ type: 'event', name: 'Placeholder', inputs: [], anonymous: false }]),
    'placeholder.wasm': EMPTY_WASM,
    'subgraph.yaml': manifest(network, startBlock),
  };
  for (const folder of [dir, build]) {
    for (const [name, content] of Object.entries(files)) await writeFile(path.join(folder, name), content);
  }
  return path.join(dir, 'subgraph.yaml');
}
