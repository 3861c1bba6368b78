/**
 * What every manifest rule works with: the parsed manifest, the files around it (read once per
 * run), the caches of parsed ABIs, schemas and mappings, and `flag` to report a finding.
 */
import * as path from 'node:path';
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import { fileErrorOf, type FileReadError } from '../../files';
import { parseAbi, type AbiResult } from '../code/abi';
import type { ManifestDoc } from '../manifest/manifestDoc';
import { scanMapping, type MappingScan } from '../code/mappingScan';
import { analyzeSchema, type SchemaInfo } from '../schema/schema';
import { wasmFunctionExports } from '../code/wasmExports';
import type { FileSource, Finding, FindingAction, Fix, Severity } from '../types';

/** Anything with source offsets in the manifest: a node, or a pair's key. */
export interface Span {
  start: number;
  end: number;
}

const CACHE_LIMIT = 512;
const CHECKSUMS = new Map<string, string>();

/**
 * Parsed ABIs, schemas and mapping scans, keyed by content: a manifest with 200 data sources
 * sharing one ABI parses it once. One per run by default; an editor may keep one across runs.
 */
export class ValidationCache {
  private readonly abis = new Map<string, AbiResult>();
  private readonly schemas = new Map<string, SchemaInfo>();
  private readonly mappings = new Map<string, MappingScan>();

  abi(text: string): AbiResult {
    return remember(this.abis, text, () => parseAbi(text));
  }

  schema(file: string, text: string): SchemaInfo {
    return remember(this.schemas, `${file}\0${text}`, () => analyzeSchema(text, file));
  }

  mapping(text: string): MappingScan {
    return remember(this.mappings, text, () => scanMapping(text));
  }

  /**
   * The EIP-55 form of a 40-hex-digit address (0x-prefixed), or with `chainId` its EIP-1191 form
   * for that chain. Shared by all caches: it is a pure function, and a keccak per address is the
   * costliest step of re-validating a manifest.
   */
  checksum(address: string, chainId?: number): string {
    const lower = address.replace(/^0x/i, '').toLowerCase();
    const make = chainId === undefined ? () => getAddress(`0x${lower}`) : () => eip1191(lower, chainId);
    return remember(CHECKSUMS, `${chainId ?? ''}:${lower}`, make, 8 * CACHE_LIMIT);
  }
}

/** EIP-1191: EIP-55 with the hash taken over `<chain id>0x<address>`, so one chain's form fails on another. */
function eip1191(lower: string, chainId: number): string {
  const hash = keccak256(toUtf8Bytes(`${chainId}0x${lower}`)).slice(2);
  let out = '0x';
  for (let i = 0; i < 40; i++) out += parseInt(hash[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  return out;
}

function remember<T>(map: Map<string, T>, key: string, make: () => T, limit = CACHE_LIMIT): T {
  let value = map.get(key);
  if (value === undefined) {
    if (map.size >= limit) map.clear();
    value = make();
    map.set(key, value);
  }
  return value;
}

export class Context {
  readonly findings: Finding[] = [];
  private readonly reads = new Map<string, string | undefined>();

  constructor(
    readonly manifestFile: string,
    readonly doc: ManifestDoc,
    readonly files: FileSource,
    readonly cache: ValidationCache,
  ) {}

  private readonly resolved = new Map<string, string>();

  /** A path written in the manifest, resolved against the manifest's folder. */
  resolve(relative: string): string {
    let file = this.resolved.get(relative);
    if (file === undefined) {
      file = path.isAbsolute(relative) ? path.normalize(relative) : path.join(path.dirname(this.manifestFile), relative);
      this.resolved.set(relative, file);
    }
    return file;
  }

  private readonly problems = new Map<string, FileReadError>();

  /** Reads a file once per run; undefined when it is missing or cannot be read (see problemOf). */
  read(file: string): string | undefined {
    if (!this.reads.has(file)) {
      let text: string | undefined;
      try {
        text = this.files.read(file);
      } catch (err) {
        text = undefined;
        this.problems.set(file, fileErrorOf(file, err));
      }
      this.reads.set(file, text);
    }
    return this.reads.get(file);
  }

  private readonly wasmExports = new Map<string, Set<string> | undefined>();

  /**
   * The functions a compiled mapping exports, once per run; undefined when the file source cannot
   * read bytes, the file is missing or unreadable, or it is not a WebAssembly module.
   */
  wasmExportsOf(file: string): Set<string> | undefined {
    if (!this.wasmExports.has(file)) {
      let names: Set<string> | undefined;
      try {
        const bytes = this.files.readBytes?.(file);
        names = bytes && wasmFunctionExports(bytes);
      } catch (err) {
        this.problems.set(file, fileErrorOf(file, err));
      }
      this.wasmExports.set(file, names);
    }
    return this.wasmExports.get(file);
  }

  /** Why a file read gave undefined other than being missing (a folder, a FIFO, too large…). */
  problemOf(file: string): FileReadError | undefined {
    return this.problems.get(file);
  }

  /** Every file this run could not read for a reason other than being missing. */
  fileProblems(): FileReadError[] {
    return [...this.problems.values()];
  }

  /** What a rule could not check though it should have (a module a mapping names that is not there). */
  readonly unchecked: string[] = [];

  private graphTs: { version?: string } | undefined;

  /**
   * The @graphprotocol/graph-ts version the project resolves, looking in node_modules folders
   * from the manifest's folder up, as Node (and graph-cli) do; undefined when not installed.
   */
  graphTsVersion(): string | undefined {
    if (!this.graphTs) {
      this.graphTs = {};
      for (let dir = path.resolve(path.dirname(this.manifestFile)), i = 0; i < 64; dir = path.dirname(dir), i++) {
        const text = this.read(path.join(dir, 'node_modules', '@graphprotocol', 'graph-ts', 'package.json'));
        if (text !== undefined) {
          try {
            const version = (JSON.parse(text) as { version?: unknown }).version;
            if (typeof version === 'string') this.graphTs.version = version;
          } catch {
            // an unreadable package.json tells nothing
          }
          break;
        }
        if (path.dirname(dir) === dir) break;
      }
    }
    return this.graphTs.version;
  }

  private graphCli: { installed?: string; range?: string } | undefined;

  /**
   * The graph-cli the workspace uses: the version installed in the nearest node_modules from the
   * manifest's folder up (as Node resolves it), else the range the nearest package.json naming it
   * asks for; both undefined when neither is found.
   */
  graphCliVersion(): { installed?: string; range?: string } {
    if (!this.graphCli) {
      const found: { installed?: string; range?: string } = {};
      const json = (file: string): Record<string, unknown> | undefined => {
        const text = this.read(file);
        if (text === undefined) return undefined;
        try {
          const value: unknown = JSON.parse(text);
          return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
        } catch {
          return {}; // an unreadable package.json tells nothing
        }
      };
      for (let dir = path.resolve(path.dirname(this.manifestFile)), i = 0; i < 64; dir = path.dirname(dir), i++) {
        const installed = json(path.join(dir, 'node_modules', '@graphprotocol', 'graph-cli', 'package.json'));
        if (installed) {
          if (typeof installed.version === 'string') found.installed = installed.version;
          break;
        }
        const pkg = json(path.join(dir, 'package.json'));
        for (const key of ['dependencies', 'devDependencies']) {
          const deps = pkg?.[key] as Record<string, unknown> | undefined;
          const range = deps && typeof deps === 'object' ? deps['@graphprotocol/graph-cli'] : undefined;
          if (found.range === undefined && typeof range === 'string') found.range = range;
        }
        if (path.dirname(dir) === dir) break;
      }
      this.graphCli = found;
    }
    return this.graphCli;
  }

  mtime(file: string): number | undefined {
    try {
      return this.files.mtime(file);
    } catch {
      return undefined;
    }
  }

  text(span: Span): string {
    return this.doc.text.slice(span.start, span.end);
  }

  /** Reports a finding in the manifest. */
  flag(span: Span, severity: Severity, code: string, message: string, extra: { fix?: Fix; alternative?: Fix; action?: FindingAction } = {}): void {
    this.findings.push({ file: this.manifestFile, range: this.doc.lines.range(span.start, span.end), severity, code, message, ...extra });
  }

  /** A fix replacing a span of the manifest. */
  replace(span: Span, text: string, title: string): Fix {
    return { kind: 'replace', title, file: this.manifestFile, edits: [{ range: this.doc.lines.range(span.start, span.end), text }] };
  }
}
