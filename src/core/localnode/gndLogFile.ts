/**
 * gnd's output kept in the data folder (`logs/gnd.log`), so that `chaindeck graph-node logs` can
 * read a node that another process supervises (gnd dev keeps no log store for `_logs`). Bounded:
 * past MAX_BYTES the file becomes `gnd.log.1` (the one before is dropped) and a new one starts.
 * Lines are written redacted (gnd echoes its endpoints), one write each, so a reader never sees
 * half a line for long.
 */
import { closeSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { redactText } from '../redact';

export const GND_LOG_DIR = 'logs';
export const GND_LOG_FILE = 'gnd.log';
/** Where a full log goes when a new one starts. */
export const GND_LOG_ROTATED = 'gnd.log.1';
export const GND_LOG_MAX_BYTES = 16 * 1024 * 1024;
/** A line longer than this is cut (a mapping can log megabytes at once). */
export const MAX_LINE_CHARS = 64 * 1024;
/** What a cut keeps of a line's end: graph-node writes the deployment and handler there, after the text. */
const KEPT_TAIL_CHARS = 2048;

/** `line` within MAX_LINE_CHARS: a long one loses the middle of its text, never its end (whose deployment it is). */
export function boundedLine(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - KEPT_TAIL_CHARS - 1)}…${line.slice(-KEPT_TAIL_CHARS)}` : line;
}

export const gndLogPath = (dataDir: string) => path.join(dataDir, GND_LOG_DIR, GND_LOG_FILE);

export class GndLogFile {
  private fd: number | undefined;
  private size = 0;

  constructor(
    private readonly dataDir: string,
    private readonly maxBytes = GND_LOG_MAX_BYTES,
  ) {}

  /** Appends one line; a failure to write (disk full) loses the line, never the node. */
  write(line: string): void {
    try {
      const text = `${redactText(boundedLine(line))}\n`;
      if (this.fd === undefined) this.open();
      if (this.size + Buffer.byteLength(text) > this.maxBytes && this.size > 0) this.rotate();
      this.size += writeSync(this.fd!, text);
    } catch {
      this.close();
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): void {
    const dir = path.join(this.dataDir, GND_LOG_DIR);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.fd = openSync(path.join(dir, GND_LOG_FILE), 'a', 0o600);
    this.size = statSync(path.join(dir, GND_LOG_FILE)).size;
  }

  private rotate(): void {
    this.close();
    const dir = path.join(this.dataDir, GND_LOG_DIR);
    renameSync(path.join(dir, GND_LOG_FILE), path.join(dir, GND_LOG_ROTATED));
    this.open();
  }
}
