/**
 * A deployment's profile from its metrics: each handler's count, total and mean time and share
 * of all handler time, the share of that time spent in eth_call, and where eth_call dominates a
 * hint to declare the calls in the manifest (`calls:` on the handler, specVersion 1.2.0+), so
 * graph-node runs them before the handler, side by side, and the mapping's calls are answered
 * from its cache.
 */
import { parseManifest } from '../../subgraph/manifest/manifestDoc';
import { get, items, str } from '../../subgraph/ynode';
import type { DeploymentMetrics, EthCallTime } from './metrics';

export interface HandlerProfile {
  handler: string;
  count: number;
  seconds: number;
  meanMs: number;
  /** Of all handler time (0–1). */
  share: number;
}

export interface EthCallShare {
  count: number;
  seconds: number;
  /** Of the time in handlers and declared calls (0–1). */
  share: number;
  /** By contract and method, most time first. */
  methods: EthCallTime[];
}

/** A handler line in subgraph.yaml. */
export interface HandlerPlace {
  handler: string;
  dataSource?: string;
  /** 0-based line of its `handler:` value. */
  line: number;
  /** Whether it already declares eth_calls (`calls:`). */
  declaresCalls: boolean;
}

export interface CallsHint {
  message: string;
  /** The handlers it points at, slowest first (those whose data source binds the called contract's ABI). */
  places: HandlerPlace[];
  /** Whether the manifest's specVersion is below 1.2.0 (declared calls need it). */
  needsSpecVersion: boolean;
}

export interface Profile {
  deployment: string;
  handlers: HandlerProfile[];
  totalSeconds: number;
  ethCall: EthCallShare;
  hint?: CallsHint;
}

/** eth_call over this share of the time is called dominant. */
export const ETH_CALL_DOMINANT = 0.5;
const MIN_SPEC = [1, 2, 0];

/** The profile of a deployment; `manifestText` (its subgraph.yaml, when known) places the hint. */
export function profileOf(metrics: DeploymentMetrics, manifestText?: string): Profile {
  const totalSeconds = metrics.handlers.reduce((sum, h) => sum + h.seconds, 0);
  const handlers = metrics.handlers
    .map((h) => ({ handler: h.handler, count: h.count, seconds: h.seconds, meanMs: h.count ? (h.seconds * 1000) / h.count : 0, share: totalSeconds ? h.seconds / totalSeconds : 0 }))
    .sort((a, b) => b.seconds - a.seconds);
  const methods = [...metrics.ethCalls].sort((a, b) => b.seconds - a.seconds);
  const callSeconds = methods.reduce((sum, c) => sum + c.seconds, 0);
  // Undeclared calls run inside the handlers, declared ones before them: both are in the whole.
  const whole = totalSeconds + metrics.declaredCallSeconds;
  const ethCall = { count: methods.reduce((sum, c) => sum + c.count, 0), seconds: callSeconds, share: whole ? Math.min(1, callSeconds / whole) : 0, methods };
  const profile: Profile = { deployment: metrics.deployment, handlers, totalSeconds, ethCall };
  if (ethCall.share >= ETH_CALL_DOMINANT) profile.hint = callsHint(profile, manifestText);
  return profile;
}

function callsHint(profile: Profile, manifestText: string | undefined): CallsHint {
  const { ethCall } = profile;
  const top = ethCall.methods[0];
  const spent = `eth_call takes ${percent(ethCall.share)} of the handler time (${ethCall.count.toLocaleString('en-US')} calls, ${((ethCall.seconds * 1000) / Math.max(1, ethCall.count)).toFixed(1)} ms each; most: ${top.contract}.${top.method})`;
  const manifest = manifestText === undefined ? undefined : handlerPlaces(manifestText);
  const seconds = new Map(profile.handlers.map((h) => [h.handler, h.seconds]));
  const contracts = new Set(ethCall.methods.map((m) => m.contract));
  // The metrics do not say which handler made a call: the calls' time was spent inside handlers that
  // bind the called contract's ABI, so the slowest of those, as many as it takes to hold that time.
  const candidates = (manifest?.places ?? [])
    .filter((p) => p.abis.some((abi) => contracts.has(abi)) && seconds.has(p.handler))
    .sort((a, b) => (seconds.get(b.handler) ?? 0) - (seconds.get(a.handler) ?? 0));
  const holding: HandlerPlace[] = [];
  for (let held = 0; holding.length < candidates.length && held < ethCall.seconds;) {
    const { abis: _abis, ...place } = candidates[holding.length];
    holding.push(place);
    held += seconds.get(place.handler) ?? 0;
  }
  // One that declares its calls already is not told to again.
  const places = holding.filter((p) => !p.declaresCalls);
  const needsSpecVersion = manifest?.specVersion === undefined || olderThan(manifest.specVersion, MIN_SPEC);
  const where = places.length ? ` on ${places.map((p) => `${p.handler} (subgraph.yaml line ${p.line + 1})`).join(', ')}` : ' on the handlers that make them';
  // Said only where it matters: a manifest at 1.2.0 or later needs no change of specVersion.
  const spec = needsSpecVersion ? `; declared eth_calls need specVersion 1.2.0 or later${manifest?.specVersion ? ` (this manifest: ${manifest.specVersion})` : ''}` : '';
  return {
    message: `${spent}. Where a call's arguments come from the event, declare it under \`calls:\`${where}, as \`label: ${top.contract}[event.address].${top.method}(event.params.…)\`: graph-node then runs the calls before the handler, side by side, and the mapping's calls are answered from its cache${spec}.`,
    places,
    needsSpecVersion,
  };
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

function olderThan(version: string, min: number[]): boolean {
  const parts = version.split('.').map((p) => Number(p));
  for (let i = 0; i < min.length; i++) {
    const v = Number.isFinite(parts[i]) ? parts[i] : 0;
    if (v !== min[i]) return v < min[i];
  }
  return false;
}

/** Every handler of a manifest with its line, its data source's ABIs and whether it declares calls; the specVersion. */
export function handlerPlaces(text: string): { specVersion?: string; places: (HandlerPlace & { abis: string[] })[] } {
  const doc = parseManifest(text);
  const root = doc.root;
  const places: (HandlerPlace & { abis: string[] })[] = [];
  for (const ds of [...items(get(root, 'dataSources')), ...items(get(root, 'templates'))]) {
    const mapping = get(ds, 'mapping');
    const abis = items(get(mapping, 'abis')).flatMap((a) => str(get(a, 'name')) ?? []);
    for (const list of ['eventHandlers', 'callHandlers', 'blockHandlers']) {
      for (const entry of items(get(mapping, list))) {
        const node = get(entry, 'handler');
        const handler = str(node);
        if (!node || !handler) continue;
        places.push({ handler, dataSource: str(get(ds, 'name')), line: doc.lines.position(node.start).line, declaresCalls: get(entry, 'calls') !== undefined, abis });
      }
    }
  }
  const spec = get(root, 'specVersion');
  return { specVersion: spec?.kind === 'scalar' && spec.value !== null ? String(spec.value) : undefined, places };
}
