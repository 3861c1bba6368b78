/**
 * The local IPFS endpoint of the local graph-node: an HTTP server on 127.0.0.1 that speaks the
 * part of kubo's RPC API and gateway that `graph deploy` and graph-node use (add, pin/add, cat,
 * block/get, version; HEAD/GET /ipfs/…), built on the real UnixFS importer and exporter with
 * kubo's `ipfs add` defaults, so every CID equals kubo's. Blocks are kept on disk.
 *
 * The bridge: `gnd dev` resolves a deployment's files from its working directory, never from
 * IPFS, so every added file is also written there as a plain file named by its CID.
 */
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import type { FsBlockstore } from 'blockstore-fs';
import type { UnixFSEntry } from 'ipfs-unixfs-exporter';
import type { ImportCandidate, ImporterOptions, WritableStorage } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { MultipartError, spoolParts } from './multipart';

// The IPFS libraries are ES modules whose own dependencies resolve only by `import` (not
// `require`), and they are needed only once the endpoint starts: loaded then, by import().
const libraries = () =>
  Promise.all([import('ipfs-unixfs-importer'), import('ipfs-unixfs-exporter'), import('blockstore-fs'), import('multiformats/cid')]).then(([importer, exporter, blockstore, cid]) => ({
    importer: importer.importer,
    exporter: exporter.exporter,
    FsBlockstore: blockstore.FsBlockstore,
    CID: cid.CID,
  }));

/** kubo's `ipfs add` defaults (IPIP-499 "unixfs-v0-2015"): CIDv0, dag-pb leaves, 256 KiB chunks, 174 links a node. */
export const KUBO_ADD_OPTIONS: ImporterOptions = { profile: 'unixfs-v0-2015', cidVersion: 0, rawLeaves: false, reduceSingleLeafToSelf: true, wrapWithDirectory: false };

/** The largest upload accepted in one `add`: a subgraph's build is a few MiB. */
const MAX_ADD_BYTES = 256 * 1024 * 1024;

export interface IpfsEndpointOptions {
  /** Where the blocks are kept. */
  blocksDir: string;
  /** The bridge: every added file is written here as a file named by its CID (gnd's working directory). */
  filesDir: string;
  /** 0 (the default) for a free port. */
  port?: number;
}

export interface IpfsEndpoint {
  /** http://127.0.0.1:PORT, for `graph deploy --ipfs` and gnd's `--ipfs`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface AddedEntry {
  name: string;
  cid: string;
  size: bigint;
}

/** Adds files (name → bytes, or a stream of them) as kubo's `ipfs add` does: the files first, then the folders their names make. */
export async function addFiles(files: readonly { name: string; bytes: Uint8Array | AsyncIterable<Uint8Array> }[], blockstore: WritableStorage): Promise<AddedEntry[]> {
  const candidates: ImportCandidate[] = files.map((f) => ({ path: f.name, content: f.bytes }));
  const { importer } = await libraries();
  const added: AddedEntry[] = [];
  for await (const entry of importer(candidates, blockstore, { ...KUBO_ADD_OPTIONS })) {
    added.push({ name: entry.path ?? entry.cid.toString(), cid: entry.cid.toString(), size: entry.size });
  }
  return added;
}

/** The CID kubo's `ipfs add` gives these bytes (nothing is kept). */
export async function cidOfBytes(bytes: Uint8Array): Promise<string> {
  const sink = { put: async (cid: CID) => cid };
  const [entry] = await addFiles([{ name: 'file', bytes }], sink);
  return entry.cid;
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** kubo's error body for an RPC call that failed. */
function sendError(res: http.ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ Message: message, Code: 0, Type: 'error' }));
}

function sendJson(res: http.ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(value)}\n`);
}

/** A percent-encoded name or path; malformed encoding is the client's error (400), not the endpoint's. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpProblem(400, `malformed percent-encoding in "${text}"`);
  }
}

/** The `arg` of an RPC call: a CID, optionally followed by a path inside it. */
function argOf(url: URL): string {
  const arg = url.searchParams.get('arg');
  if (!arg) throw new HttpProblem(400, 'argument "ipfs-path" is required');
  return arg.replace(/^\/ipfs\//, '');
}

function cidOfArg(arg: string, CID: typeof import('multiformats/cid').CID): CID {
  try {
    return CID.parse(arg.split('/')[0]);
  } catch {
    throw new HttpProblem(400, `invalid path "${arg}": not a CID`);
  }
}

async function entryAt(arg: string, blockstore: FsBlockstore): Promise<UnixFSEntry> {
  const { exporter, CID } = await libraries();
  const cid = cidOfArg(arg, CID);
  if (!(await blockstore.has(cid))) throw new HttpProblem(404, `${arg}: not found on this endpoint`);
  try {
    return await exporter(arg, blockstore);
  } catch (err) {
    throw new HttpProblem(404, `${arg}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function sendContent(res: http.ServerResponse, entry: UnixFSEntry, head: boolean): Promise<void> {
  if (entry.type === 'directory') {
    const names: string[] = [];
    for await (const child of entry.entries()) names.push(child.name);
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(head ? undefined : `${names.join('\n')}\n`);
    return;
  }
  if (entry.type !== 'file' && entry.type !== 'raw' && entry.type !== 'identity') throw new HttpProblem(400, `${entry.cid}: not a file`);
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(entry.size) });
  if (head) {
    res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    Readable.from(entry.content()).on('error', reject).pipe(res).on('finish', resolve).on('error', reject);
  });
}

/** Starts the endpoint on 127.0.0.1; it holds the empty folder kubo holds, so graph-node's gateway probe finds it. */
export async function startIpfsEndpoint(options: IpfsEndpointOptions): Promise<IpfsEndpoint> {
  await mkdir(options.filesDir, { recursive: true });
  const { importer, FsBlockstore, CID } = await libraries();
  const blockstore = new FsBlockstore(options.blocksDir);
  await blockstore.open();
  // The empty folder (QmUNLLs…), which graph-node asks the gateway for at start.
  for await (const _ of importer([{ path: 'empty' }], blockstore, { ...KUBO_ADD_OPTIONS })) void _;

  const rpc: Record<string, (url: URL, req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>> = {
    async add(_url, req, res) {
      // A declared length over the bound is refused before a byte is read.
      if (Number(req.headers['content-length']) > MAX_ADD_BYTES) throw new HttpProblem(413, `upload larger than ${MAX_ADD_BYTES} bytes`);
      const contentType = req.headers['content-type'] ?? '';
      if (!contentType.startsWith('multipart/form-data')) throw new HttpProblem(400, 'add needs a multipart/form-data body');
      // The upload goes to disk as it arrives (never whole into memory), then each file is imported from there.
      const spool = await mkdtemp(path.join(path.dirname(options.filesDir), '.add-'));
      try {
        const parts = (await spoolParts(req, contentType, spool, MAX_ADD_BYTES)).filter((p) => p.field === 'file');
        if (!parts.length) throw new HttpProblem(400, 'add needs at least one file part');
        const files = parts.map((p) => ({ name: decoded(p.filename || 'file'), path: p.file }));
        const added = await addFiles(
          files.map((f) => ({ name: f.name, bytes: createReadStream(f.path) })),
          blockstore,
        );
        // The bridge: each file, already on disk, moved into gnd's folder under its CID.
        for (const file of files) {
          const entry = added.find((a) => a.name === file.name);
          if (entry) await rename(file.path, path.join(options.filesDir, entry.cid));
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(added.map((a) => `${JSON.stringify({ Name: a.name, Hash: a.cid, Size: String(a.size) })}\n`).join(''));
      } catch (err) {
        throw err instanceof MultipartError ? new HttpProblem(err.status, err.message) : err;
      } finally {
        await rm(spool, { recursive: true, force: true });
      }
    },
    async 'pin/add'(url, _req, res) {
      const cid = cidOfArg(argOf(url), CID);
      if (!(await blockstore.has(cid))) throw new HttpProblem(404, `${cid}: not found on this endpoint`);
      sendJson(res, { Pins: [cid.toString()] });
    },
    async cat(url, _req, res) {
      await sendContent(res, await entryAt(argOf(url), blockstore), false);
    },
    async 'block/get'(url, _req, res) {
      const cid = cidOfArg(argOf(url), CID);
      if (!(await blockstore.has(cid))) throw new HttpProblem(404, `${cid}: not found on this endpoint`);
      const chunks: Uint8Array[] = [];
      for await (const chunk of blockstore.get(cid)) chunks.push(chunk);
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.concat(chunks));
    },
    async version(_url, _req, res) {
      sendJson(res, { Version: '0.0.0-local', Commit: '', Repo: '', System: `${process.arch}/${process.platform}`, Golang: '' });
    },
  };

  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const handle = async () => {
      if (url.pathname.startsWith('/api/v0/')) {
        const call = rpc[url.pathname.slice('/api/v0/'.length).replace(/\/$/, '')];
        if (!call) throw new HttpProblem(404, `${url.pathname}: not served by this endpoint`);
        if (req.method !== 'POST') throw new HttpProblem(405, `${url.pathname} takes POST`);
        await call(url, req, res);
      } else if (url.pathname.startsWith('/ipfs/') && (req.method === 'GET' || req.method === 'HEAD')) {
        await sendContent(res, await entryAt(decoded(url.pathname.slice('/ipfs/'.length)), blockstore), req.method === 'HEAD');
      } else {
        throw new HttpProblem(404, `${url.pathname}: not found`);
      }
    };
    handle().catch((err: unknown) => sendError(res, err instanceof HttpProblem ? err.status : 500, err instanceof Error ? err.message : String(err)));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      await blockstore.close();
    },
  };
}
