/**
 * The fast deploy to the local graph-node, without the graph CLI: each file of build/ added to
 * the node's IPFS endpoint (`POST /api/v0/add`, one multipart file per request, the first
 * NDJSON line's `Hash` taken as graph-cli takes it), the manifest linked to them and added last,
 * then the admin port's JSON-RPC: `subgraph_create` (a name that exists is fine) and
 * `subgraph_deploy { name, ipfs_hash, version_label }`. The deployment id is the manifest's CID.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { askGnd } from '../../localnode/status';
import { linkedManifestText, manifestFiles } from './manifest';

/** Where a local graph-node takes deploys. */
export interface DeployTarget {
  admin: string;
  ipfs: string;
}

const MAX_FILE_BYTES = 64 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

/** Adds one file; resolves with its CID. */
export async function ipfsAdd(ipfsUrl: string, name: string, bytes: Uint8Array, signal?: AbortSignal): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), encodeURIComponent(name));
  const res = await fetch(`${ipfsUrl.replace(/\/+$/, '')}/api/v0/add?stream-channels=true&progress=false`, {
    method: 'POST',
    body: form,
    signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = (await res.text()).slice(0, 64 * 1024);
  if (!res.ok) throw new Error(`The local IPFS endpoint refused ${name}: HTTP ${res.status} ${text.split('\n')[0].slice(0, 200)}`);
  const hash = (JSON.parse(text.split('\n')[0]) as { Hash?: unknown }).Hash;
  if (typeof hash !== 'string') throw new Error(`The local IPFS endpoint answered no CID for ${name}.`);
  return hash;
}

/** One admin JSON-RPC call; resolves with its result, rejects with graph-node's error message. */
export async function adminCall(adminUrl: string, method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
  const reply = await askGnd(adminUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), { timeoutMs: TIMEOUT_MS, maxBytes: 1024 * 1024, signal, peer: 'the admin port' });
  let body: { result?: unknown; error?: { message?: string } };
  try {
    body = JSON.parse(reply.text) as typeof body;
  } catch {
    throw new Error(`The admin port answered HTTP ${reply.status} with no JSON-RPC reply to ${method}.`);
  }
  if (body.error)
    throw new Error(
      `${method}: ${String(body.error.message ?? 'failed')
        .split('\n')[0]
        .slice(0, 500)}`,
    );
  return body.result;
}

export interface UploadedBuild {
  /** The deployment id: the linked manifest's CID. */
  deployment: string;
}

/** Uploads build/ (its manifest text given, already rewritten) and deploys it as `name`. */
export async function deployBuild(buildDir: string, manifestText: string, name: string, target: DeployTarget, versionLabel: string, signal?: AbortSignal): Promise<UploadedBuild> {
  const files = manifestFiles(manifestText);
  const cids = new Map<string, string>();
  await Promise.all(
    files.map(async (file) => {
      const full = path.resolve(buildDir, file);
      if (path.relative(buildDir, full).startsWith('..')) throw new Error(`The built manifest names ${file}, outside its build folder.`);
      const bytes = await readFile(full);
      if (bytes.length > MAX_FILE_BYTES) throw new Error(`${file} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB.`);
      cids.set(file, await ipfsAdd(target.ipfs, file, bytes, signal));
    }),
  );
  const linked = linkedManifestText(manifestText, (file) => cids.get(file)!);
  const deployment = await ipfsAdd(target.ipfs, 'subgraph.yaml', new TextEncoder().encode(linked), signal);
  try {
    await adminCall(target.admin, 'subgraph_create', { name }, signal);
  } catch (err) {
    if (!/already exists/i.test(err instanceof Error ? err.message : String(err))) throw err;
  }
  await adminCall(target.admin, 'subgraph_deploy', { name, ipfs_hash: deployment, version_label: versionLabel }, signal);
  return { deployment };
}
