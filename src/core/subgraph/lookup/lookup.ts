/**
 * Reading a parsed manifest and the files it names, for completions, hovers and the proxy hint:
 * the data source around a key path, its ABI, its mapping, the schema. Parsing is the cache's (by
 * content); this only follows the manifest's references.
 */
import * as path from 'node:path';
import { fileErrorOf } from '../../files';
import type { Abi } from '../code/abi';
import type { ValidationCache } from '../rules/context';
import { nodeAtPath, type ManifestDoc } from '../manifest/manifestDoc';
import type { SchemaInfo } from '../schema/schema';
import type { FileSource } from '../types';
import type { YNode } from '../ynode';
import type { KeyPath } from './keyPath';

export function nodeAt(doc: ManifestDoc | undefined, keyPath: KeyPath): YNode | undefined {
  const target = nodeAtPath(doc?.root, keyPath);
  return target && target.matched === keyPath.length ? target.node : undefined;
}

export function stringAt(doc: ManifestDoc | undefined, keyPath: KeyPath): string | undefined {
  const node = nodeAt(doc, keyPath);
  return node?.kind === 'scalar' && typeof node.value === 'string' ? node.value : undefined;
}

/** `dataSources.*.mapping.entities.*` for ['dataSources', 0, 'mapping', 'entities', 2]. */
export function pattern(keyPath: KeyPath): string {
  return keyPath.map((s) => (typeof s === 'number' ? '*' : s)).join('.');
}

export interface AbiFile {
  name: string;
  /** As written in the manifest. */
  file: string;
  abi?: Abi;
  error?: string;
}

export class Subgraph {
  constructor(
    readonly manifestFile: string,
    readonly doc: ManifestDoc | undefined,
    private readonly files: FileSource,
    private readonly cache: ValidationCache,
  ) {}

  /** The data source or template a key path is in (its first two segments), if any. */
  dataSource(keyPath: KeyPath): KeyPath | undefined {
    const [list, index] = keyPath;
    return (list === 'dataSources' || list === 'templates') && typeof index === 'number' ? [list, index] : undefined;
  }

  kind(keyPath: KeyPath): string | undefined {
    const ds = this.dataSource(keyPath);
    return ds && stringAt(this.doc, [...ds, 'kind']);
  }

  resolve(written: string): string {
    return path.resolve(path.dirname(this.manifestFile), written);
  }

  /** An ABI of the data source, by name (default: its `source.abi`), parsed. */
  abi(ds: KeyPath, name = stringAt(this.doc, [...ds, 'source', 'abi'])): AbiFile | undefined {
    const abis = nodeAt(this.doc, [...ds, 'mapping', 'abis']);
    if (name === undefined || abis?.kind !== 'seq') return undefined;
    const index = abis.items.findIndex((_, i) => stringAt(this.doc, [...ds, 'mapping', 'abis', i, 'name']) === name);
    const file = index === -1 ? undefined : stringAt(this.doc, [...ds, 'mapping', 'abis', index, 'file']);
    if (file === undefined) return undefined;
    const { text, error } = this.read(this.resolve(file));
    if (text === undefined) return { name, file, error: error?.replace(this.resolve(file), file) ?? `${file} does not exist` };
    const result = this.cache.abi(text);
    return 'abi' in result ? { name, file, abi: result.abi } : { name, file, error: result.error };
  }

  /** Names listed under the data source's `mapping.abis`. */
  abiNames(ds: KeyPath): string[] {
    const abis = nodeAt(this.doc, [...ds, 'mapping', 'abis']);
    if (abis?.kind !== 'seq') return [];
    return abis.items.map((_, i) => stringAt(this.doc, [...ds, 'mapping', 'abis', i, 'name'])).filter((n): n is string => n !== undefined);
  }

  /** Functions the data source's mapping file exports: the handlers it can name. */
  exports(ds: KeyPath): string[] {
    const file = stringAt(this.doc, [...ds, 'mapping', 'file']);
    const text = file === undefined ? undefined : this.read(this.resolve(file)).text;
    return text === undefined ? [] : [...this.cache.mapping(text).exports].sort();
  }

  schema(): { file: string; text: string; info: SchemaInfo } | undefined {
    const written = stringAt(this.doc, ['schema', 'file']);
    if (written === undefined) return undefined;
    const file = this.resolve(written);
    const { text } = this.read(file);
    return text === undefined ? undefined : { file, text, info: this.cache.schema(file, text) };
  }

  /** A file's text, or why not (a folder, a pipe, too large): completions and hovers never throw. */
  private read(file: string): { text?: string; error?: string } {
    try {
      return { text: this.files.read(file) };
    } catch (err) {
      return { error: fileErrorOf(file, err).message };
    }
  }
}
