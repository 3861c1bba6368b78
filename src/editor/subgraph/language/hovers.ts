/**
 * Hovers in subgraph.yaml and schema.graphql: an event signature's topic0 and ABI event; an
 * entity's fields and the queries graph-node serves for it; an ABI's events and functions (on a
 * data source name or an ABI name); an address's checksum (and proxy) status; a key's docs.
 */
import * as vscode from 'vscode';
import { canonicalSignature, normalizeSignature, topic0 } from '../../../core/subgraph/code/abi';
import type { EntityType } from '../../../core/subgraph/schema/schema';
import { manifestKeyDoc } from '../../../core/subgraph/manifest/shape';
import { placeAt, type KeyPath } from '../../../core/subgraph/lookup/keyPath';
import { listQueryName, singleQueryName } from '../../../core/subgraph/query/naming';
import type { SubgraphDiagnostics } from './diagnostics';
import { liveFiles } from './files';
import { pattern, stringAt, Subgraph } from '../../../core/subgraph/lookup/lookup';
import type { ProxyHints } from './proxyHints';

/** Longer lists are cut, so a hover stays a glance. */
const MAX_LISTED = 25;

export class SubgraphHovers implements vscode.HoverProvider {
  constructor(
    private readonly diagnostics: SubgraphDiagnostics,
    private readonly proxies: ProxyHints,
  ) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (document.languageId === 'graphql') return this.schemaHover(document, position);
    if (!this.diagnostics.isManifest(document)) return undefined;
    const place = placeAt(document.getText(), position.line, position.character);
    if (position.character < place.start || position.character > place.end) return undefined;
    const range = new vscode.Range(position.line, place.start, position.line, place.end);
    const subgraph = new Subgraph(document.uri.fsPath, this.diagnostics.docFor(document), liveFiles(), this.diagnostics.cache);
    const markdown =
      place.part === 'key' ? keyDoc(subgraph, place.path, place.key) : this.valueHover(subgraph, place.path, document.lineAt(position.line).text.slice(place.start, place.end));
    return markdown && new vscode.Hover(markdown, range);
  }

  private valueHover(subgraph: Subgraph, keyPath: KeyPath, text: string): vscode.MarkdownString | undefined {
    const at = pattern(keyPath);
    const ds = subgraph.dataSource(keyPath);
    const value = stringAt(subgraph.doc, keyPath) ?? text;
    if (!ds || !value) return undefined;
    if (/^\w+\.\*\.mapping\.eventHandlers\.\*\.event$/.test(at)) return eventHover(subgraph, ds, value);
    if (/^\w+\.\*\.mapping\.entities\.\*$/.test(at)) {
      const schema = subgraph.schema();
      const entity = schema?.info.entities.get(value);
      return entity ? entityHover(entity, schema!.text) : undefined;
    }
    if (/^\w+\.\*\.(?:name|source\.abi)$/.test(at)) return abiHover(subgraph, ds, at.endsWith('.name') ? undefined : value);
    if (/^\w+\.\*\.mapping\.abis\.\*\.name$/.test(at)) return abiHover(subgraph, ds, value);
    if (at === 'dataSources.*.source.address') return this.addressHover(value);
    return undefined;
  }

  private addressHover(address: string): vscode.MarkdownString {
    const md = new vscode.MarkdownString();
    if (!/^(0x)?[0-9a-fA-F]{40}$/.test(address)) return md.appendMarkdown('Not a contract address: 40 hexadecimal digits after `0x` are expected.');
    const hex = address.replace(/^0x/, '');
    const checksummed = this.diagnostics.cache.checksum(address);
    if (`0x${hex}` === checksummed) md.appendMarkdown('EIP-55 checksum: **valid**.');
    else if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) md.appendMarkdown(`EIP-55 checksum: none (single case). Checksummed: \`${checksummed}\``);
    else md.appendMarkdown(`EIP-55 checksum: **wrong** (a typo?). The checksummed form of these digits is \`${checksummed}\``);
    const proxy = this.proxies.describe(address);
    if (proxy)
      md.appendMarkdown(`\n\nEIP-1967 proxy of \`${proxy.implementation}\` (read on ${proxy.node}): the ABI must come from the implementation; the proxy's address emits the events.`);
    return md;
  }

  private schemaHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (document.uri.scheme !== 'file') return undefined;
    const text = document.getText();
    const offset = document.offsetAt(position);
    const info = this.diagnostics.cache.schema(document.uri.fsPath, text);
    for (const entity of info.entities.values()) {
      if (offset >= entity.nameStart && offset <= entity.nameEnd) {
        return new vscode.Hover(entityHover(entity, text), new vscode.Range(document.positionAt(entity.nameStart), document.positionAt(entity.nameEnd)));
      }
    }
    return undefined;
  }
}

function keyDoc(subgraph: Subgraph, keyPath: KeyPath, key: string | undefined): vscode.MarkdownString | undefined {
  const doc = key === undefined ? undefined : manifestKeyDoc([...keyPath, key], subgraph.kind(keyPath));
  if (!doc) return undefined;
  return new vscode.MarkdownString(`\`${doc.key}\`: ${doc.type}${doc.required ? ' (required)' : ''}\n\n${doc.doc}`);
}

function eventHover(subgraph: Subgraph, ds: KeyPath, written: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**topic0** \`${topic0(written)}\`\n\n`);
  md.appendMarkdown(`keccak-256 of \`${canonicalSignature(written)}\`\n\n`);
  const abi = subgraph.abi(ds);
  // Without a readable ABI the diagnostics say why; the hash still helps.
  if (!abi?.abi) return md;
  const wanted = normalizeSignature(written);
  const event = abi.abi.events.find((e) => e.signature === wanted) ?? abi.abi.events.find((e) => canonicalSignature(e.signature) === canonicalSignature(wanted));
  if (!event) return md.appendMarkdown(`Not an event of ABI \`${abi.name}\` (${abi.file}).`);
  const params = event.params.map((p) => `${p.type}${p.indexed ? ' indexed' : ''} ${p.name}`).join(', ');
  md.appendMarkdown(`Event of ABI \`${abi.name}\` (${abi.file}):`);
  md.appendCodeblock(`event ${event.name}(${params})`, 'solidity');
  if (event.signature !== wanted) md.appendMarkdown(`The manifest must say \`${event.signature}\` (with its \`indexed\` markers).`);
  return md;
}

function entityHover(entity: EntityType, schemaText: string): vscode.MarkdownString {
  const fields = [...entity.fields.values()].map((f) => `  ${schemaText.slice(f.start, f.end).replace(/\s+/g, ' ')}`);
  const md = new vscode.MarkdownString();
  md.appendCodeblock(`type ${entity.name} @entity(${entity.timeseries ? 'timeseries' : 'immutable'}: ${entity.timeseries || entity.immutable}) {\n${fields.join('\n')}\n}`, 'graphql');
  md.appendMarkdown(`Queries: \`${singleQueryName(entity.name)}(id: …)\` for one record, \`${listQueryName(entity.name)}\` for the list.`);
  return md;
}

function abiHover(subgraph: Subgraph, ds: KeyPath, name: string | undefined): vscode.MarkdownString | undefined {
  const abi = subgraph.abi(ds, name);
  if (!abi) return undefined;
  const md = new vscode.MarkdownString(`ABI **${abi.name}** (${abi.file})\n\n`);
  if (!abi.abi) return md.appendMarkdown(abi.error ?? '');
  const section = (title: string, items: string[]) => {
    md.appendMarkdown(`${title} (${items.length})${items.length ? ':' : ''}\n\n`);
    for (const item of items.slice(0, MAX_LISTED)) md.appendMarkdown(`- \`${item}\`\n`);
    if (items.length > MAX_LISTED) md.appendMarkdown(`- … and ${items.length - MAX_LISTED} more\n`);
    md.appendMarkdown('\n');
  };
  section(
    'Events',
    abi.abi.events.map((e) => e.signature),
  );
  section('Functions call handlers can name', abi.abi.callFunctions);
  return md;
}
