/**
 * A multipart/form-data body read as it arrives, each part written to a file of its own, so an
 * upload of hundreds of MB costs a few chunks of memory rather than its size (twice over, as a
 * whole-body parser holds it). Bounded: the whole body, and each part's headers.
 */
import { open, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';

export interface SpooledPart {
  /** The form field's name. */
  field: string;
  /** The part's file name as sent (still percent-encoded, as graph-cli sends it); '' when none. */
  filename: string;
  /** Where its bytes are. */
  file: string;
  size: number;
}

/** The body cannot be read as multipart, or is too large: `status` is the HTTP answer. */
export class MultipartError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_HEADER_BYTES = 16 * 1024;

/** The boundary a multipart content type names. */
export function boundaryOf(contentType: string): string | undefined {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

function dispositionParam(headers: string, name: string): string {
  const line = headers.split('\r\n').find((l) => /^content-disposition:/i.test(l)) ?? '';
  const m = new RegExp(`;\\s*${name}="([^"]*)"`, 'i').exec(line) ?? new RegExp(`;\\s*${name}=([^;\\s]+)`, 'i').exec(line);
  return m?.[1] ?? '';
}

/** Writes every part of `body` into `dir` (part-0, part-1, …) and returns them in order. */
export async function spoolParts(body: AsyncIterable<Uint8Array>, contentType: string, dir: string, maxBytes: number): Promise<SpooledPart[]> {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw new MultipartError(400, 'the multipart body names no boundary');
  // The first delimiter has no CRLF before it: one is put in front of the body so every delimiter looks the same.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const parts: SpooledPart[] = [];
  let pending = Buffer.from('\r\n');
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let total = 0;
  let current: { part: SpooledPart; handle: FileHandle } | undefined;
  const write = async (bytes: Buffer) => {
    if (!current || bytes.length === 0) return;
    await current.handle.write(bytes);
    current.part.size += bytes.length;
  };
  try {
    for await (const chunk of body) {
      total += chunk.length;
      if (total > maxBytes) throw new MultipartError(413, `upload larger than ${maxBytes} bytes`);
      pending = pending.length ? Buffer.concat([pending, chunk]) : Buffer.from(chunk);
      for (let progressed = true; progressed && state !== 'done';) {
        progressed = false;
        if (state === 'preamble' || state === 'body') {
          const at = pending.indexOf(delimiter);
          // Without a delimiter, all but a tail that may start one is content (or preamble, dropped).
          const keep = at < 0 ? Math.min(pending.length, delimiter.length - 1) : 0;
          const end = at < 0 ? pending.length - keep : at;
          if (state === 'body') await write(pending.subarray(0, end));
          if (at >= 0) {
            if (current) {
              await current.handle.close();
              parts.push(current.part);
              current = undefined;
            }
            pending = pending.subarray(at + delimiter.length);
            state = 'after-delimiter';
            progressed = true;
          } else {
            pending = Buffer.from(pending.subarray(end));
          }
        } else if (state === 'after-delimiter' && pending.length >= 2) {
          const next = pending.subarray(0, 2).toString('latin1');
          state = next === '--' ? 'done' : 'headers';
          pending = pending.subarray(next === '\r\n' ? 2 : next === '--' ? 2 : 0);
          progressed = true;
        } else if (state === 'headers') {
          const end = pending.indexOf('\r\n\r\n');
          if (end < 0) {
            if (pending.length > MAX_HEADER_BYTES) throw new MultipartError(400, 'a part has headers larger than 16 KiB');
            continue;
          }
          const headers = `\r\n${pending.subarray(0, end).toString('utf8')}`;
          const part: SpooledPart = { field: dispositionParam(headers, 'name'), filename: dispositionParam(headers, 'filename'), file: path.join(dir, `part-${parts.length}`), size: 0 };
          current = { part, handle: await open(part.file, 'wx', 0o600) };
          pending = pending.subarray(end + 4);
          state = 'body';
          progressed = true;
        }
      }
    }
    if (state !== 'done') throw new MultipartError(400, 'the multipart body ends before its closing boundary');
    return parts;
  } finally {
    await current?.handle.close().catch(() => undefined);
  }
}
