/**
 * Contract ABIs as the graph CLI reads them: events as signatures with `indexed` markers (the
 * form manifests use), the functions call handlers may name, and topic hashes (ethers' keccak).
 */
import { id } from 'ethers';
import { nearMatch } from '../nearMatch';
import type { EventParam } from '../types';

export interface AbiEvent {
  name: string;
  /** `Approval(indexed address,indexed address,uint256)`: what `eventHandlers[].event` must say. */
  signature: string;
  params: EventParam[];
}

export interface Abi {
  events: AbiEvent[];
  /** Signatures of the functions a call handler may name (state-changing ones): `approve(address,uint256)`. */
  callFunctions: string[];
}

export type AbiResult = { abi: Abi } | { error: string };

interface AbiInput {
  name?: unknown;
  type?: unknown;
  indexed?: unknown;
  components?: unknown;
}

/**
 * Parses ABI JSON: a bare array, or `{abi: […]}` (Hardhat/Foundry artifacts), or
 * `{compilerOutput: {abi: […]}}`, as the CLI accepts. Errors read like the CLI's.
 */
export function parseAbi(text: string): AbiResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { error: `Could not parse ABI: ${whyNotJson(text, err)}` };
  }
  const entries = abiEntries(json);
  if (!entries) return { error: 'No valid ABI in file: expected a JSON array of ABI entries (or an object with an "abi" array)' };
  try {
    return { abi: readEntries(entries) };
  } catch (err) {
    if (err instanceof TooDeep) return { error: err.message };
    throw err;
  }
}

/**
 * What is wrong with text that is not JSON, without quoting it: the parser's own message shows
 * the file's first bytes, and a manifest may point its ABI at any file (a secret among them).
 */
function whyNotJson(text: string, err: unknown): string {
  const start = text.trimStart();
  if (!start) return 'the file is empty';
  if (start[0] !== '[' && start[0] !== '{') return 'the file is not JSON (it does not start with [ or {)';
  if (err instanceof Error && /^Unexpected end of JSON input/.test(err.message)) return 'the JSON ends early (is the file cut short?)';
  return 'the file is not valid JSON';
}

/** Tuples nested deeper than this are refused (real ABIs nest a few levels), before the stack runs out. */
export const MAX_TUPLE_DEPTH = 32;

class TooDeep extends Error {
  constructor(where: string) {
    super(`The ABI nests tuples more than ${MAX_TUPLE_DEPTH} levels deep (in ${where}); a real contract needs a few, so it is not read`);
  }
}

function readEntries(entries: unknown[]): Abi {
  const events: AbiEvent[] = [];
  const callFunctions: string[] = [];
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as { type?: unknown; name?: unknown; inputs?: unknown; stateMutability?: unknown; constant?: unknown };
    const inputs = Array.isArray(e.inputs) ? (e.inputs as AbiInput[]) : [];
    if (e.type === 'event' && typeof e.name === 'string') {
      events.push({
        name: e.name,
        signature: `${e.name}(${inputs.map((input) => parameter(input, 0, `event ${e.name as string}`)).join(',')})`,
        params: inputs.map((input, i) => ({ name: typeof input?.name === 'string' && input.name ? input.name : `param${i}`, type: typeText(input), indexed: input?.indexed === true })),
      });
    }
    const isFunction = e.type === undefined || e.type === 'function' || e.type === 'fallback';
    const changesState = e.stateMutability === 'nonpayable' || e.stateMutability === 'payable' || e.constant === false;
    const fn = typeof e.name === 'string' ? e.name : '<default>';
    if (isFunction && changesState) callFunctions.push(`${fn}(${inputs.map((input) => parameter(input, 0, `function ${fn}`)).join(',')})`);
  }
  return { events, callFunctions };
}

function abiEntries(json: unknown): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (json && typeof json === 'object') {
    const o = json as { abi?: unknown; compilerOutput?: { abi?: unknown } };
    if (Array.isArray(o.abi)) return o.abi;
    if (Array.isArray(o.compilerOutput?.abi)) return o.compilerOutput.abi;
  }
  return undefined;
}

/** A parameter as the CLI writes it: tuples as `(…)`, `indexed ` in front (inside a tuple's parentheses). */
function parameter(input: AbiInput, depth = 0, where = 'a parameter'): string {
  const indexed = input?.indexed === true ? 'indexed ' : '';
  const type = typeof input?.type === 'string' ? input.type : '';
  const tuple = type.startsWith('tuple') ? /^tuple((?:\[\d*\])*)$/.exec(type) : null;
  if (tuple && Array.isArray(input.components)) {
    if (depth >= MAX_TUPLE_DEPTH) throw new TooDeep(where);
    return `(${indexed}${(input.components as AbiInput[]).map((c) => parameter(c, depth + 1, where)).join(',')})${tuple[1]}`;
  }
  return `${indexed}${type}`;
}

/** The type of a parameter with tuples spelled out, without `indexed`. */
function typeText(input: AbiInput): string {
  return parameter({ ...input, indexed: false });
}

/**
 * Event signatures with `indexed` markers, for completions: `Approval(indexed address,…)`.
 * Takes a parsed ABI or the ABI file's text (which gives none when it does not parse).
 */
export function events(abi: Abi | string): string[] {
  const parsed = typeof abi === 'string' ? parseAbi(abi) : { abi };
  return 'abi' in parsed ? parsed.abi.events.map((e) => e.signature) : [];
}

/** A signature without `indexed` markers: what the event topic hashes. */
export function canonicalSignature(signature: string): string {
  return normalizeSignature(signature).replace(/indexed /g, '');
}

/** topic0 of an event: keccak-256 of its canonical signature. Accepts `indexed` markers. */
export function topic0(signature: string): string {
  return id(canonicalSignature(signature));
}

/** Whitespace as the CLI expects it: one space between two words (after `indexed` too), none around brackets and commas. */
export function normalizeSignature(signature: string): string {
  return signature
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),[\]])\s*/g, '$1')
    .replace(/\bindexed\s*/g, 'indexed ')
    .trim();
}

/**
 * The ABI event a wrong signature most likely meant: same name and types (only `indexed`
 * differs), else same name, else the nearest name.
 */
export function bestEvent(abi: Abi, written: string): AbiEvent | undefined {
  const wanted = normalizeSignature(written);
  const name = wanted.split('(')[0];
  const byName = abi.events.filter((e) => e.name === name);
  const sameTypes = byName.find((e) => canonicalSignature(e.signature) === canonicalSignature(wanted));
  if (sameTypes) return sameTypes;
  if (byName.length) return byName[0];
  const near = nearMatch(
    name,
    abi.events.map((e) => e.name),
  );
  return near === undefined ? undefined : abi.events.find((e) => e.name === near);
}

/** The call function a wrong signature most likely meant: same name, else the nearest name. */
export function bestFunction(abi: Abi, written: string): string | undefined {
  const name = normalizeSignature(written).split('(')[0];
  const names = abi.callFunctions.map((f) => f.split('(')[0]);
  const near = names.includes(name) ? name : nearMatch(name, names);
  return near === undefined ? undefined : abi.callFunctions[names.indexOf(near)];
}
