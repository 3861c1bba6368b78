/**
 * The debug version's manifest: the built manifest (build/subgraph.yaml) made to resume at the
 * failing block N, either grafted onto the failed deployment at N−1 (`features: [grafting]`,
 * `graft: { base, block }`) or with every data source starting at N; then, for the upload, each
 * `file:` of it replaced by its IPFS link as `graph deploy` writes them (`file: { /: /ipfs/<CID> }`).
 */
import { isMap, isScalar, isSeq, parseDocument, visit, type Document, type Scalar } from 'yaml';

export type ReplayStart = { kind: 'graft'; base: string; block: number } | { kind: 'startBlock'; block: number };

/** A manifest that cannot be replayed: the message says why. */
export class ReplayManifestError extends Error {}

function documentOf(text: string): Document {
  const doc = parseDocument(text);
  if (doc.errors.length) throw new ReplayManifestError(`The built manifest is not YAML: ${doc.errors[0].message.split('\n')[0]}`);
  if (!isMap(doc.contents)) throw new ReplayManifestError('The built manifest is not a YAML mapping.');
  return doc;
}

/** The built manifest's text, made to resume at `start`. */
export function replayManifestText(text: string, start: ReplayStart): string {
  const doc = documentOf(text);
  if (start.kind === 'graft') {
    const features = doc.get('features');
    const names = isSeq(features) ? features.items.map((i) => (isScalar(i) ? String(i.value) : '')).filter(Boolean) : [];
    if (!names.includes('grafting')) doc.set('features', [...names, 'grafting']);
    doc.set('graft', doc.createNode({ base: start.base, block: start.block }));
    return doc.toString();
  }
  // A template has no start block: it starts where its data source is created.
  const sources = doc.get('dataSources');
  if (!isSeq(sources) || !sources.items.length) throw new ReplayManifestError('The built manifest has no data source.');
  sources.items.forEach((_, i) => doc.setIn(['dataSources', i, 'source', 'startBlock'], start.block));
  return doc.toString();
}

/** Every `file:` path of the manifest (schema, mappings, ABIs), as written (relative to build/). */
export function manifestFiles(text: string): string[] {
  const files = new Set<string>();
  visit(documentOf(text), {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === 'file' && isScalar(pair.value) && typeof pair.value.value === 'string') files.add(pair.value.value);
    },
  });
  return [...files];
}

/** The manifest with each `file:` path replaced by its IPFS link; `cidOf` knows every path manifestFiles named. */
export function linkedManifestText(text: string, cidOf: (file: string) => string): string {
  const doc = documentOf(text);
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === 'file' && isScalar(pair.value) && typeof pair.value.value === 'string') {
        pair.value = doc.createNode({ '/': `/ipfs/${cidOf((pair.value as Scalar<string>).value)}` });
      }
    },
  });
  return doc.toString();
}
