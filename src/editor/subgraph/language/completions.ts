/**
 * Completions in subgraph.yaml: the keys the map at the cursor takes (with their docs), and
 * values where the manifest's own files or core's tables know them: event signatures and call
 * functions from the data source's ABI, handlers the mapping exports, entities of the schema,
 * ABI names, networks, versions, kinds.
 */
import * as vscode from 'vscode';
import { topic0 } from '../../../core/subgraph/code/abi';
import { EVM_NETWORKS } from '../../../core/subgraph/manifest/networks';
import { manifestKeysAt, shapeAt } from '../../../core/subgraph/manifest/shape';
import { KNOWN_FEATURES } from '../../../core/subgraph/rules/values';
import { API_VERSIONS, SPEC_VERSIONS } from '../../../core/subgraph/rules/versions';
import { placeAt, type KeyPath, type Place } from '../../../core/subgraph/lookup/keyPath';
import type { SubgraphDiagnostics } from './diagnostics';
import { liveFiles } from './files';
import { nodeAt, pattern, Subgraph } from '../../../core/subgraph/lookup/lookup';

interface Value {
  label: string;
  kind: vscode.CompletionItemKind;
  detail?: string;
  doc?: string;
}

/** Kinds of data sources Chaindeck checks (core's shape table names them only in docs). */
const KINDS = { dataSources: ['ethereum'], templates: ['ethereum', 'file/ipfs', 'file/arweave'] };

export class ManifestCompletions implements vscode.CompletionItemProvider {
  constructor(private readonly diagnostics: SubgraphDiagnostics) {}

  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    if (!this.diagnostics.isManifest(document)) return undefined;
    const place = placeAt(document.getText(), position.line, position.character);
    const subgraph = new Subgraph(document.uri.fsPath, this.diagnostics.docFor(document), liveFiles(), this.diagnostics.cache);
    const kind = subgraph.kind(place.path);
    // `- ev` in a list of maps is the first key of a new item, not a value.
    if (place.part === 'value' && shapeAt(place.path, kind)?.type === 'object') return this.keys(subgraph, { ...place, part: 'key' }, document, position, kind);
    return place.part === 'key' ? this.keys(subgraph, place, document, position, kind) : this.values(subgraph, place, document, position);
  }

  private keys(subgraph: Subgraph, place: Place, document: vscode.TextDocument, position: vscode.Position, kind: string | undefined): vscode.CompletionItem[] {
    const map = nodeAt(subgraph.doc, place.path);
    const present = new Set(map?.kind === 'map' ? map.pairs.map((p) => p.key) : []);
    const range = new vscode.Range(position.line, Math.min(place.start, position.character), position.line, Math.max(place.end, position.character));
    // Snippet lines after the first get the line's indentation added; `- key` needs more.
    const extra = place.column - document.lineAt(position.line).firstNonWhitespaceCharacterIndex;
    return manifestKeysAt(place.path, kind)
      .filter((k) => k.key === place.key || !present.has(k.key))
      .map((k) => {
        const item = new vscode.CompletionItem({ label: k.key, description: k.type }, vscode.CompletionItemKind.Property);
        item.detail = `${k.key}: ${k.type}${k.required ? ' (required)' : ''}`;
        item.documentation = new vscode.MarkdownString(k.doc);
        item.sortText = `${k.required ? 0 : 1}${k.key}`;
        item.range = range;
        // Renaming a key keeps its value; a new key gets the start of its value.
        item.insertText = place.key !== undefined ? k.key : keySnippet(k.key, shapeAt([...place.path, k.key], kind), extra);
        return item;
      });
  }

  private values(subgraph: Subgraph, place: Place, document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
    const values = this.valuesAt(subgraph, place.path);
    const start = Math.min(place.start, position.character);
    const range = {
      inserting: new vscode.Range(position.line, start, position.line, position.character),
      replacing: new vscode.Range(position.line, start, position.line, Math.max(place.end, position.character)),
    };
    // Right after `key:` a value needs a space before it.
    const space = start > 0 && document.lineAt(position.line).text[start - 1] === ':' ? ' ' : '';
    return values.map((v, i) => {
      const item = new vscode.CompletionItem(v.label, v.kind);
      item.detail = v.detail;
      if (v.doc) item.documentation = new vscode.MarkdownString(v.doc);
      item.sortText = String(i).padStart(4, '0');
      item.range = range;
      item.insertText = space + v.label;
      item.filterText = space + v.label;
      return item;
    });
  }

  private valuesAt(subgraph: Subgraph, keyPath: KeyPath): Value[] {
    const at = pattern(keyPath);
    const ds = subgraph.dataSource(keyPath);
    const list = (labels: readonly string[], kind: vscode.CompletionItemKind, detail?: string): Value[] => labels.map((label) => ({ label, kind, detail }));
    if (ds && /^\w+\.\*\.mapping\.eventHandlers\.\*\.event$/.test(at)) {
      const abi = subgraph.abi(ds);
      return (abi?.abi?.events ?? []).map((e) => ({
        label: e.signature,
        kind: vscode.CompletionItemKind.Event,
        detail: `topic0 ${topic0(e.signature)}`,
        doc: `Event of ABI \`${abi!.name}\` (${abi!.file})\n\n${e.params.map((p) => `- \`${p.type}${p.indexed ? ' indexed' : ''} ${p.name}\``).join('\n')}`,
      }));
    }
    if (ds && /^\w+\.\*\.mapping\.callHandlers\.\*\.function$/.test(at)) {
      return list(subgraph.abi(ds)?.abi?.callFunctions ?? [], vscode.CompletionItemKind.Method, 'Function of the ABI');
    }
    if (ds && /^\w+\.\*\.mapping\.(?:(?:eventHandlers|callHandlers|blockHandlers)\.\*\.)?handler$/.test(at)) {
      return list(subgraph.exports(ds), vscode.CompletionItemKind.Function, 'Exported by the mapping file');
    }
    if (ds && /^\w+\.\*\.mapping\.entities\.\*$/.test(at)) {
      return list([...(subgraph.schema()?.info.entities.keys() ?? [])], vscode.CompletionItemKind.Struct, 'Entity of the schema');
    }
    if (ds && /^\w+\.\*\.source\.abi$/.test(at)) return list(subgraph.abiNames(ds), vscode.CompletionItemKind.Reference, 'ABI of mapping.abis');
    if (ds && /^\w+\.\*\.network$/.test(at)) return list(EVM_NETWORKS, vscode.CompletionItemKind.EnumMember, 'Network of The Graph’s registry');
    if (ds && /^\w+\.\*\.kind$/.test(at)) return list(KINDS[ds[0] as keyof typeof KINDS], vscode.CompletionItemKind.EnumMember);
    if (/^\w+\.\*\.mapping\.kind$/.test(at)) return list(['ethereum/events'], vscode.CompletionItemKind.EnumMember);
    if (/^\w+\.\*\.mapping\.language$/.test(at)) return list(['wasm/assemblyscript'], vscode.CompletionItemKind.EnumMember);
    if (/^\w+\.\*\.mapping\.apiVersion$/.test(at)) return list([...API_VERSIONS].reverse(), vscode.CompletionItemKind.Constant, 'Mapping API version');
    if (at === 'specVersion') return list([...SPEC_VERSIONS].reverse(), vscode.CompletionItemKind.Constant, 'Manifest specification version');
    if (at === 'features.*') return list(KNOWN_FEATURES, vscode.CompletionItemKind.EnumMember, 'Feature of graph-node');
    const shape = shapeAt(keyPath, subgraph.kind(keyPath));
    if (shape?.type === 'enum') return list(shape.values, vscode.CompletionItemKind.EnumMember);
    if (shape?.type === 'Boolean') return list(['true', 'false'], vscode.CompletionItemKind.Constant);
    return [];
  }
}

/** `key: `, or `key:` and the start of the nested map or list on the next line. */
function keySnippet(key: string, shape: ReturnType<typeof shapeAt>, extraIndent: number): vscode.SnippetString {
  const indent = ' '.repeat(Math.max(0, extraIndent) + 2);
  const nested = shape?.type === 'object' || (shape?.type === 'union' && shape.of.some((s) => s.type === 'object'));
  if (nested) return new vscode.SnippetString(`${key}:\n${indent}$0`);
  if (shape?.type === 'list') return new vscode.SnippetString(`${key}:\n${indent}- $0`);
  return new vscode.SnippetString(`${key}: $0`);
}
