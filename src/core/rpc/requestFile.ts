/**
 * Request files (`*.jsonrpc`): one or more JSON-RPC requests separated by lines starting with
 * `###` (the rest of that line is the request's title). Each request is a JSON object (one
 * call; `jsonrpc`, `id` and `params` are filled in when missing) or an array of them (a batch).
 * Whole lines starting with `#` or `//` are comments; `# @node <name>` anywhere picks the node.
 * Pure: positions are zero-based lines and characters, as editors count them.
 */
import { MAX_JSON_DEPTH, tooDeepAt } from '../json';
import { locateJsonError } from './params';
import type { JsonRpcRequest } from './types';

export interface TextPosition {
  line: number;
  character: number;
}

export interface TextRange {
  start: TextPosition;
  end: TextPosition;
}

export type RequestPayload = JsonRpcRequest | JsonRpcRequest[];

export interface FileRequest {
  /** Where the JSON text of the request is. */
  range: TextRange;
  /** First line of the request's section: its `###` line, or 0 for the first section. */
  sectionLine: number;
  title?: string;
  /** Ready to send; absent when the text has an error. */
  payload?: RequestPayload;
  parseError?: { message: string; position: TextPosition };
}

export interface NodeDirective {
  name: string;
  line: number;
}

export interface RequestFile {
  requests: FileRequest[];
  /** The file's `# @node` line; the last one wins when there are several. */
  node?: NodeDirective;
}

const SEPARATOR = /^\s*###(.*)$/;
const COMMENT = /^\s*(#|\/\/)/;
const NODE_DIRECTIVE = /^\s*#\s*@node\s+(.*?)\s*$/;

/** The directive line that makes a request file use the node `name`. */
export function nodeDirective(name: string): string {
  return `# @node ${name}`;
}

export function parseRequestFile(text: string): RequestFile {
  const lines = text.split(/\r?\n/);
  const requests: FileRequest[] = [];
  let node: NodeDirective | undefined;
  // The first section has no separator line; later ones start with theirs.
  let section = { line: 0, bodyLine: 0, title: undefined as string | undefined, body: [] as string[] };

  const closeSection = () => {
    const request = parseSection(section);
    if (request) requests.push(request);
  };

  lines.forEach((line, index) => {
    const separator = SEPARATOR.exec(line);
    if (separator) {
      closeSection();
      section = { line: index, bodyLine: index + 1, title: separator[1].trim() || undefined, body: [] };
      return;
    }
    const directive = NODE_DIRECTIVE.exec(line);
    if (directive && directive[1]) node = { name: directive[1], line: index };
    // Comment lines become blank so JSON positions still match the file's lines.
    section.body.push(COMMENT.test(line) ? '' : line);
  });
  closeSection();
  return { requests, node };
}

/** The request whose section holds `line` (the first request when `line` is above them all). */
export function requestAt(file: RequestFile, line: number): FileRequest | undefined {
  return file.requests.filter((r) => r.sectionLine <= line).pop() ?? file.requests[0];
}

/** `body[0]` is the file's line `bodyLine`. */
function parseSection(section: { line: number; bodyLine: number; title?: string; body: string[] }): FileRequest | undefined {
  const { body, bodyLine, title } = section;
  const first = body.findIndex((l) => l.trim() !== '');
  if (first < 0) return undefined;
  const last = body.length - 1 - [...body].reverse().findIndex((l) => l.trim() !== '');
  const range: TextRange = {
    start: { line: bodyLine + first, character: body[first].search(/\S/) },
    end: { line: bodyLine + last, character: body[last].trimEnd().length },
  };
  const base = { range, sectionLine: section.line, ...(title ? { title } : {}) };

  const json = body.join('\n');
  const at = (offset: number): TextPosition => {
    const before = json.slice(0, offset).split('\n');
    return { line: bodyLine + before.length - 1, character: before[before.length - 1].length };
  };

  const deep = tooDeepAt(json, MAX_JSON_DEPTH.params);
  if (deep !== -1) return { ...base, parseError: { message: `The request is nested more than ${MAX_JSON_DEPTH.params} levels deep`, position: at(deep) } };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    const { offset, problem } = locateJsonError(json);
    return { ...base, parseError: { message: `Invalid JSON: ${problem}`, position: at(offset) } };
  }
  const payload = toPayload(value);
  if (typeof payload === 'string') return { ...base, parseError: { message: payload, position: range.start } };
  return { ...base, payload };
}

/** Fills in what a request may leave out; returns a message when the value is not a request. */
function toPayload(value: unknown): RequestPayload | string {
  if (Array.isArray(value)) {
    if (value.length === 0) return 'An empty batch has nothing to send; add requests to the array.';
    const problem = value.map(requestProblem).find((p) => p);
    if (problem) return problem;
    const used = new Set(value.map((r) => (r as { id?: unknown }).id).filter((id) => id !== undefined));
    let next = 1;
    const freshId = () => {
      while (used.has(next)) next++;
      used.add(next);
      return next;
    };
    return value.map((r) => withDefaults(r as Record<string, unknown>, freshId));
  }
  return requestProblem(value, -1) ?? withDefaults(value as Record<string, unknown>, () => 1);
}

function requestProblem(value: unknown, index: number): string | undefined {
  const where = index >= 0 ? `Batch item ${index + 1}` : 'A request';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${where} must be a JSON object like {"method": "eth_blockNumber", "params": []}.`;
  }
  const method = (value as { method?: unknown }).method;
  if (typeof method !== 'string' || method === '') return `${where} needs a "method" string.`;
  return undefined;
}

function withDefaults(request: Record<string, unknown>, freshId: () => number): JsonRpcRequest {
  return {
    jsonrpc: '2.0',
    id: request.id === undefined ? freshId() : request.id,
    ...request,
    params: request.params === undefined ? [] : request.params,
  } as JsonRpcRequest;
}
