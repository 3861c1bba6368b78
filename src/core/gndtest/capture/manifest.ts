/**
 * What a capture needs of a subgraph's manifest: its data sources and templates (name, address,
 * start block, handlers), the ABIs they name as ethers Interfaces, and a copy of the manifest
 * whose data sources start at the captured range's first block (written beside the original, so
 * its relative paths still resolve, and removed after).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { id, Interface, type InterfaceAbi } from 'ethers';
import { parse, parseDocument } from 'yaml';

/** The copy's file name, beside the manifest: a dot file, so it stays out of the way. */
export const CAPTURE_MANIFEST = '.chaindeck-capture.subgraph.yaml';

/** The largest manifest or ABI file read. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

export interface CaptureSource {
  name: string;
  template: boolean;
  address?: string;
  /** The name of the ABI its `source.abi` names (its contract's). */
  abi?: string;
  startBlock: number;
  /** topic0 of each event its handlers take. */
  topics: Set<string>;
  /** Whether it has block handlers (they run on every block) or call handlers (gnd test has no calls). */
  blockHandlers: boolean;
  callHandlers: boolean;
}

export interface CaptureManifest {
  file: string;
  dir: string;
  sources: CaptureSource[];
  /** Every ABI the manifest names, by name. */
  abis: Map<string, Interface>;
  schemaFile: string;
}

/** A manifest the capture cannot work from: the message says what to fix. */
export class ManifestError extends Error {}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** topic0 of a manifest's event (`Transfer(indexed address,indexed address,uint256)`): the hash of its types without `indexed`. */
export function eventTopic(event: string): string {
  return id(event.replace(/\bindexed\s+/g, '').replace(/\s+/g, ''));
}

function readBounded(file: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ManifestError(`${what} ${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (text.length > MAX_FILE_BYTES) throw new ManifestError(`${what} ${file} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB.`);
  return text;
}

function abiOf(file: string): Interface {
  let json: unknown;
  try {
    json = JSON.parse(readBounded(file, 'The ABI'));
  } catch (err) {
    if (err instanceof ManifestError) throw err;
    throw new ManifestError(`The ABI ${file} is not JSON.`);
  }
  // A bare ABI, or an artifact holding one (as the graph CLI accepts).
  const abi = Array.isArray(json) ? json : obj(json).abi;
  if (!Array.isArray(abi)) throw new ManifestError(`The ABI ${file} holds no ABI array.`);
  try {
    return new Interface(abi as InterfaceAbi);
  } catch (err) {
    throw new ManifestError(`The ABI ${file} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Reads the manifest and the ABIs it names. */
export function readCaptureManifest(file: string): CaptureManifest {
  const dir = path.dirname(file);
  let root: Obj;
  try {
    root = obj(parse(readBounded(file, 'The manifest'), { maxAliasCount: 100 }));
  } catch (err) {
    if (err instanceof ManifestError) throw err;
    throw new ManifestError(`The manifest ${file} is not YAML: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  const abis = new Map<string, Interface>();
  const sources: CaptureSource[] = [];
  for (const [key, template] of [
    ['dataSources', false],
    ['templates', true],
  ] as const) {
    for (const entry of list(root[key])) {
      const ds = obj(entry);
      const source = obj(ds.source);
      const mapping = obj(ds.mapping);
      for (const abi of list(mapping.abis)) {
        const { name, file: abiFile } = obj(abi);
        if (typeof name === 'string' && typeof abiFile === 'string' && !abis.has(name)) abis.set(name, abiOf(path.resolve(dir, abiFile)));
      }
      sources.push({
        name: typeof ds.name === 'string' ? ds.name : '',
        template,
        address: typeof source.address === 'string' ? source.address.toLowerCase() : undefined,
        abi: typeof source.abi === 'string' ? source.abi : undefined,
        startBlock: typeof source.startBlock === 'number' ? source.startBlock : 0,
        topics: new Set(list(mapping.eventHandlers).flatMap((h) => (typeof obj(h).event === 'string' ? [eventTopic(obj(h).event as string)] : []))),
        blockHandlers: list(mapping.blockHandlers).length > 0,
        callHandlers: list(mapping.callHandlers).length > 0,
      });
    }
  }
  if (!sources.some((s) => !s.template)) throw new ManifestError(`The manifest ${file} has no data source.`);
  const schema = obj(root.schema).file;
  if (typeof schema !== 'string') throw new ManifestError(`The manifest ${file} names no schema file.`);
  return { file, dir, sources, abis, schemaFile: path.resolve(dir, schema) };
}

/** The manifest's text with every data source starting at `from` at the earliest. */
export function captureManifestText(text: string, from: number): string {
  const doc = parseDocument(text);
  const sources = list(obj(doc.toJS() as unknown).dataSources);
  sources.forEach((entry, i) => {
    const own = obj(obj(entry).source).startBlock;
    doc.setIn(['dataSources', i, 'source', 'startBlock'], Math.max(typeof own === 'number' ? own : 0, from));
  });
  return doc.toString();
}

/** Writes the copy beside `manifest` and returns its path. */
export async function writeCaptureManifest(manifest: string, from: number): Promise<string> {
  const copy = path.join(path.dirname(manifest), CAPTURE_MANIFEST);
  await writeFile(copy, captureManifestText(readBounded(manifest, 'The manifest'), from));
  return copy;
}
