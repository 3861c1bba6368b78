/**
 * Reading what the graph CLI printed (run with FORCE_COLOR=0). The exit code alone is not to be
 * trusted: `graph deploy` exits 0 after crashing on a graph-node reply without a result. Success
 * is judged by the lines the CLI prints only on success; failures are turned into messages that
 * say what to do, and compile/manifest errors into problems with file positions.
 */
import { parseCliPath } from '../manifest/manifestDoc';
import type { GraphSubcommand } from './commands';

export type ProblemSeverity = 'error' | 'warning';

/** One problem the CLI reported, located as precisely as its output allows. */
export interface GraphProblem {
  severity: ProblemSeverity;
  message: string;
  /** e.g. TS2305, YAML. */
  code?: string;
  /** File relative to the subgraph folder (the CLI's working directory). */
  file: string;
  /** 1-based line and column, when the CLI printed them. */
  line?: number;
  column?: number;
  /**
   * For manifest errors: the YAML key path the CLI printed (`Path: dataSources > 0 > …`), numbers
   * for list indices: map it to a range with the manifest parser's rangeOfKeyPath.
   */
  keyPath?: (string | number)[];
  /** A manifest value to find when no key path was printed (a missing handler's name). */
  value?: string;
}

/** What one run of the CLI amounted to. */
export interface GraphOutcome {
  ok: boolean;
  /** One or two sentences for a notification: what happened, and on failure what to do. */
  summary: string;
  problems: GraphProblem[];
  /** `Build completed: <CID>` (deploy) or the build folder's manifest (build). */
  buildOutput?: string;
  /** The manifest's IPFS hash, when the build was uploaded. */
  ipfsHash?: string;
  /** `Deployed to <url>`: the deployment's GraphQL UI. */
  deployedTo?: string;
  /** `Queries (HTTP): <url>`. */
  queriesUrl?: string;
}

/** Where the outcome's messages may point the user. */
export interface OutcomeContext {
  /** The manifest the command read, relative to the subgraph folder. */
  manifest: string;
  /** The deploy URL as it may be shown (redacted or templated). */
  shownDeployUrl?: string;
  shownIpfsUrl?: string;
  /** Whether a deploy key was sent (401 advice differs). */
  sentDeployKey?: boolean;
  subgraphName?: string;
  /** The program that ran, as messages name it: `graph` (default) or `gnd`. */
  tool?: string;
  /** The schema file the manifest names (gnd's schema errors name no file). */
  schemaFile?: string;
}

// --- lines the CLI prints ----------------------------------------------------------------------

const DEPLOYED_TO = /^\s*(?:✔\s*)?Deployed to (\S+)\s*$/m;
const QUERIES_HTTP = /^\s*Queries \(HTTP\):\s+(\S+)\s*$/m;
const BUILD_COMPLETED = /^\s*(?:✔\s*)?Build completed:\s+(\S+)\s*$/m;
const TYPES_GENERATED = /^\s*(?:✔\s*)?Types generated successfully\s*$/m;
const INIT_CREATED = /^\s*Subgraph (\S+) created in (.+?)\s*$/m;
/** gnd's `✔ Subgraph created at <folder>`. */
const GND_INIT_CREATED = /^\s*✔ Subgraph created at (.+?)\s*$/m;
const CREATED = /^\s*(?:✔\s*)?Created subgraph: (\S+)\s*$/m;
const REMOVED = /^\s*(?:✔\s*)?Removed subgraph: (\S+)\s*$/m;
const HTTP_ERROR = /HTTP error (?:deploying|creating) the subgraph:? (\S+)/;
const NODE_REFUSED = /Failed to deploy to Graph node (\S+?): (.*)$/m;
const CREATE_REFUSED = /Error creating the subgraph: (.*)$/m;
const IPFS_UPLOAD = /Failed to upload file to IPFS: (.*)$/m;
const CID = /^(Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[a-z2-7]{50,})$/;

/** The success lines of `graph deploy`: present only when graph-node accepted the deployment. */
export function parseDeployLines(output: string): { deployedTo?: string; queriesUrl?: string; buildOutput?: string; ipfsHash?: string } {
  const build = BUILD_COMPLETED.exec(output)?.[1];
  return {
    deployedTo: DEPLOYED_TO.exec(output)?.[1],
    queriesUrl: QUERIES_HTTP.exec(output)?.[1],
    buildOutput: build,
    ipfsHash: build && CID.test(build) ? build : undefined,
  };
}

// --- problems ----------------------------------------------------------------------------------

/** `YAMLException: bad indentation of a mapping entry (8:13)`: the manifest is the only YAML read. */
const YAML_ERROR = /^\s*YAMLException: (.+?) \((\d+):(\d+)\)\s*$/gm;
/** AssemblyScript: `ERROR TS2305: <message>` … ` in src/mapping.ts(4,25)` a few lines on. */
const ASC_HEAD = /^(ERROR|WARNING) ([A-Z]{2}\d+): (.*)$/;
const ASC_WHERE = /^\s*in (.+?)\((\d+),(\d+)\)\s*$/;
const MISSING_HANDLERS = /Missing handlers in WASM: (.+)$/m;
/** gnd: `Manifest validation errors:` (or Schema, WASM handler) then `  - <message>` lines. */
const GND_BLOCK = /^(Manifest|Schema|WASM handler) validation errors:\s*$/;
/** gnd names no line for a manifest it cannot read: `Error: Failed to parse manifest YAML: "subgraph.yaml"`. */
const GND_UNPARSED = /^Error: Failed to parse manifest( YAML)?: "(.+)"\s*$/m;

/** Every problem in the output, in the order printed. */
export function extractProblems(output: string, manifest: string, schemaFile = 'schema.graphql'): GraphProblem[] {
  const problems: GraphProblem[] = [];
  for (const m of output.matchAll(YAML_ERROR)) {
    problems.push({ severity: 'error', code: 'YAML', message: m[1], file: manifest, line: Number(m[2]), column: Number(m[3]) });
  }
  problems.push(...ascProblems(output));
  problems.push(...manifestBlocks(output));
  const missing = MISSING_HANDLERS.exec(output);
  if (missing) problems.push(...missingHandlers(missing[1], manifest, (handler) => `Missing handlers in WASM: ${handler}`));
  problems.push(...gndBlocks(output, manifest, schemaFile));
  const unparsed = GND_UNPARSED.exec(output);
  if (unparsed) {
    const what = unparsed[1] ? 'is not valid YAML' : 'does not have the shape of a subgraph manifest (a value of the wrong type, e.g. a quoted number or an address that is not one)';
    problems.push({ severity: 'error', message: `gnd could not read ${unparsed[2]}: it ${what}; gnd names no line (Chaindeck's manifest checks show where).`, file: manifest });
  }
  // The CLI prints some errors twice (the spinner's line, then the thrown error): keep one.
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = JSON.stringify([p.file, p.line, p.column, p.keyPath, p.value, p.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function ascProblems(output: string): GraphProblem[] {
  const lines = output.split(/\r?\n/);
  const problems: GraphProblem[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = ASC_HEAD.exec(lines[i]);
    if (!head) continue;
    // The location follows the quoted source line and its squiggle.
    for (let j = i + 1; j < Math.min(lines.length, i + 8); j++) {
      const where = ASC_WHERE.exec(lines[j]);
      if (!where) continue;
      problems.push({
        severity: head[1] === 'ERROR' ? 'error' : 'warning',
        code: head[2],
        message: head[3].trim(),
        file: where[1],
        line: Number(where[2]),
        column: Number(where[3]),
      });
      break;
    }
  }
  return problems;
}

/**
 * `Error in <file>:` / `Warnings in <file>:` blocks. Manifest blocks list `Path: a > 0 > b` then
 * the message; schema blocks list `<Entity>:` then `- message` lines.
 */
function manifestBlocks(output: string): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const lines = output.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const head = /(Error|Warnings) in (\S+?):\s*$/.exec(lines[i]);
    if (!head) continue;
    const severity: ProblemSeverity = head[1] === 'Error' ? 'error' : 'warning';
    const file = head[2];
    let current: { keyPath?: (string | number)[]; entity?: string; message: string[] } | undefined;
    const flush = () => {
      if (!current || !current.message.length) return;
      const message = current.message.join('\n');
      if (current.keyPath) problems.push({ severity, file, keyPath: current.keyPath, message });
      else problems.push({ severity, file, value: current.entity, message: current.entity ? `${current.entity}: ${message}` : message });
    };
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j];
      if (line.trim() === '') {
        // Blank lines separate entries; the block ends at the first unindented line.
        continue;
      }
      if (!/^\s/.test(line)) break;
      const pathLine = /^\s+Path: (.*)$/.exec(line);
      const entityLine = /^\s{2,4}([A-Za-z_][A-Za-z0-9_]*):\s*$/.exec(line);
      if (pathLine) {
        flush();
        current = { keyPath: parseCliPath(pathLine[1]), message: [] };
      } else if (entityLine && !current?.keyPath) {
        flush();
        current = { entity: entityLine[1], message: [] };
      } else if (current) {
        const text = line.trim();
        current.message.push(current.entity ? text.replace(/^- /, '') : text);
      }
    }
    flush();
    i = j - 1;
  }
  return problems;
}

/** Where in its file a gnd message points: the thing it quotes or the path after `not found:`. */
function gndValue(message: string): string | undefined {
  return (
    /event '([^']+)' not found/.exec(message)?.[1] ??
    /not found: (\S+)$/.exec(message)?.[1] ??
    /^(?:Entity type|Type) `?([A-Za-z_]\w*)`?/.exec(message)?.[1] ??
    /data source '([^']+)'/.exec(message)?.[1]
  );
}

/** One problem per handler of a comma-separated list the WASM lacks (graph-cli and gnd each print such a list), `said` the toolchain's words for one. */
function missingHandlers(list: string, file: string, said: (handler: string) => string): GraphProblem[] {
  return list
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
    .map((handler) => ({
      severity: 'error',
      file,
      value: handler,
      message: `${said(handler)}. The mapping file does not export a function '${handler}' (export it, or fix the handler name in the manifest).`,
    }));
}

/** gnd's validation blocks: one problem per `- ` line (a missing-handlers line: one per handler). */
function gndBlocks(output: string, manifest: string, schemaFile: string): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const lines = output.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const head = GND_BLOCK.exec(lines[i]);
    if (!head) continue;
    const file = head[1] === 'Schema' ? schemaFile : manifest;
    for (i++; i < lines.length && /^\s+- /.test(lines[i]); i++) {
      const message = lines[i].replace(/^\s+- /, '').trim();
      const missing = /missing WASM handlers: (.+)$/.exec(message);
      if (missing) {
        problems.push(...missingHandlers(missing[1], file, (handler) => message.replace(missing[1], handler)));
      } else {
        problems.push({ severity: 'error', file, message, value: gndValue(message) });
      }
    }
    i--;
  }
  return problems;
}

// --- outcomes ----------------------------------------------------------------------------------

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (ECONNREFUSED): is graph-node running there, and are the host and port right?',
  ENOTFOUND: 'the host name was not found (ENOTFOUND): check the host in the deploy URL, and your network or DNS.',
  EAI_AGAIN: 'the host name could not be looked up (EAI_AGAIN): check your network or DNS.',
  ETIMEDOUT: 'connecting timed out (ETIMEDOUT): check your network, VPN or firewall.',
  ECONNRESET: 'the connection was reset (ECONNRESET): try again; a proxy or firewall may be closing it.',
  EHOSTUNREACH: 'there is no route to the host (EHOSTUNREACH): check your network, VPN or firewall.',
};

function lastLines(output: string, count = 3): string {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at ') && !/^- /.test(l));
  return lines.slice(-count).join(' | ');
}

function failureLine(output: string): string | undefined {
  // graph-cli marks its failure with ✖; gnd prints `Error: …`, its advice on the indented lines
  // up to a blank one (`Install it with:` / `  npm install …`).
  const marked = /^✖ (.*)$/m.exec(output)?.[1];
  const gnd = /^Error: (.*(?:\r?\n[ \t]+(?!at )\S.*)*)/m.exec(output)?.[1];
  return (marked ?? gnd)?.replace(/\s*\r?\n\s*/g, ' ').trim();
}

/** Why a deploy failed, in words that say what to do. */
function deployFailure(output: string, exitCode: number | null, ctx: OutcomeContext): string {
  const node = ctx.shownDeployUrl ?? 'the deploy URL';
  const http = HTTP_ERROR.exec(output)?.[1];
  if (http) {
    const status = Number(http);
    if (status === 401 || status === 403) {
      return ctx.sentDeployKey
        ? `graph-node at ${node} refused the deploy key (HTTP ${status}): the deploy key is wrong or belongs to another subgraph. Set it again (Set Deploy Key), or check the access key in the deploy URL.`
        : `graph-node at ${node} refused the deploy (HTTP ${status}): this host needs a deploy key, or the access key in the deploy URL is wrong. Set the subgraph's deploy key and deploy again.`;
    }
    if (status === 404) {
      return `Nothing answered at ${node} (HTTP 404): the deploy URL is wrong, or the subgraph${ctx.subgraphName ? ` '${ctx.subgraphName}'` : ''} was not created on the host yet (Add subgraph in the console, or graph create --node <deploy URL> <name>).`;
    }
    if (status >= 500) return `graph-node at ${node} failed (HTTP ${status}). Try again later; if it persists, check the host's status.`;
    if (Number.isInteger(status)) return `graph-node at ${node} answered HTTP ${status} to the deploy call. Check the deploy URL.`;
    const reason = NETWORK_CODES[http] ?? `${http}.`;
    return `Cannot reach graph-node at ${node}: ${reason}`;
  }
  const refused = NODE_REFUSED.exec(output);
  if (refused) {
    const auth = /You may need to authenticate first/.test(output) ? ' Set the deploy key, then deploy again.' : '';
    return `graph-node at ${node} refused the deployment: ${refused[2].trim()}${auth}`;
  }
  const ipfs = IPFS_UPLOAD.exec(output);
  if (ipfs) {
    const why = ipfs[1].trim();
    if (/fetch failed/i.test(why)) {
      return `Cannot reach the IPFS node at ${ctx.shownIpfsUrl ?? 'the IPFS URL'} (fetch failed): check the IPFS URL (and the key in it) and your network.`;
    }
    return `Uploading the build to IPFS at ${ctx.shownIpfsUrl ?? 'the IPFS URL'} failed: ${why}`;
  }
  if (/No response received/.test(output)) {
    return `The IPFS node at ${ctx.shownIpfsUrl ?? 'the IPFS URL'} gave an empty answer to a pin request: check that the IPFS URL is an IPFS API endpoint.`;
  }
  if (/TypeError|Cannot read properties of (?:undefined|null)/.test(output)) {
    return `graph-node at ${node} answered the deploy call without a deployment (no playground or query URL), and the graph CLI crashed${exitCode === 0 ? ' (with exit code 0)' : ''}: the subgraph is not deployed. Check that the deploy URL is a graph-node admin endpoint.`;
  }
  const fail = failureLine(output);
  if (fail) return `${ctx.tool ?? 'graph'} deploy failed: ${fail}`;
  return `${ctx.tool ?? 'graph'} deploy did not report a deployment (exit code ${exitCode ?? 'none'}): ${lastLines(output) || 'no output'}.`;
}

/**
 * Judges a finished run from its output and exit code. `output` must already be redacted when
 * the summary is shown (runGraph passes redacted text).
 */
export function judgeGraphRun(subcommand: GraphSubcommand, exitCode: number | null, output: string, ctx: OutcomeContext): GraphOutcome {
  const problems = extractProblems(output, ctx.manifest, ctx.schemaFile);
  const tool = ctx.tool ?? 'graph';
  const errors = problems.filter((p) => p.severity === 'error');
  const compileFailure = () =>
    errors.length
      ? `${errors.length} problem${errors.length === 1 ? '' : 's'} in the subgraph: ${errors[0].message.split('\n')[0]}${errors.length > 1 ? ' (and more; see Problems)' : ''}`
      : undefined;
  const exitNote = exitCode === 0 ? '' : ` (exit code ${exitCode ?? 'none'})`;
  switch (subcommand) {
    case 'deploy': {
      const lines = parseDeployLines(output);
      if (lines.deployedTo && lines.queriesUrl) {
        return { ok: true, summary: `Deployed: queries at ${lines.queriesUrl}`, problems, ...lines };
      }
      const summary =
        errors.length && !HTTP_ERROR.test(output) && !NODE_REFUSED.test(output) ? `${tool} deploy stopped before uploading: ${compileFailure()}` : deployFailure(output, exitCode, ctx);
      return { ok: false, summary, problems, buildOutput: lines.buildOutput, ipfsHash: lines.ipfsHash };
    }
    case 'build': {
      const build = BUILD_COMPLETED.exec(output)?.[1];
      if (exitCode === 0 && build && !errors.length) return { ok: true, summary: `Build completed: ${build}`, problems, buildOutput: build };
      return { ok: false, summary: `${tool} build failed${exitNote}: ${compileFailure() ?? failureLine(output) ?? lastLines(output)}`, problems };
    }
    case 'codegen': {
      if (exitCode === 0 && TYPES_GENERATED.test(output) && !errors.length) return { ok: true, summary: 'Types generated successfully.', problems };
      return { ok: false, summary: `${tool} codegen failed${exitNote}: ${compileFailure() ?? failureLine(output) ?? lastLines(output)}`, problems };
    }
    case 'init': {
      const created = INIT_CREATED.exec(output);
      if (exitCode === 0 && created) return { ok: true, summary: `Subgraph ${created[1]} created in ${created[2]}.`, problems };
      const gndCreated = GND_INIT_CREATED.exec(output);
      if (exitCode === 0 && gndCreated) return { ok: true, summary: `Subgraph created in ${gndCreated[1]}.`, problems };
      return { ok: false, summary: `${tool} init failed${exitNote}: ${failureLine(output) ?? lastLines(output)}`, problems };
    }
    case 'create': {
      const created = CREATED.exec(output);
      if (exitCode === 0 && created) return { ok: true, summary: `Created subgraph ${created[1]}.`, problems };
      const http = HTTP_ERROR.exec(output)?.[1];
      const refused = CREATE_REFUSED.exec(output)?.[1];
      const why = http ? deployFailure(output, exitCode, ctx) : refused ? `graph-node refused: ${refused.trim()}` : (failureLine(output) ?? lastLines(output));
      return { ok: false, summary: `${tool} create failed: ${why}`, problems };
    }
    case 'remove': {
      const removed = REMOVED.exec(output);
      if (exitCode === 0 && removed) return { ok: true, summary: `Removed subgraph ${removed[1]}.`, problems };
      const why = HTTP_ERROR.test(output) ? deployFailure(output, exitCode, ctx) : (failureLine(output) ?? lastLines(output));
      // gnd 0.45.0 takes graph-node's null result of subgraph_remove for an error, and hides why.
      const gndNull =
        tool === 'gnd' && /^Error: Failed to remove subgraph\s*$/m.test(output)
          ? ` (gnd says this also when graph-node did remove it: check whether ${ctx.subgraphName ?? 'the name'} is still listed)`
          : '';
      return { ok: false, summary: `${tool} remove failed: ${why}${gndNull}`, problems };
    }
  }
}

// --- what the terminal shows ------------------------------------------------------------------

/** `src/mapping.ts:4:25 error TS2305: message`: the form editors and terminals link to the place. */
export function formatProblem(p: GraphProblem): string {
  const where = p.line !== undefined ? `${p.file}:${p.line}:${p.column ?? 1}` : p.keyPath?.length ? `${p.file} (${p.keyPath.join(' > ')})` : p.file;
  const message = p.message.replace(/\s*\n\s*/g, ' ');
  return `${where} ${p.severity}${p.code ? ` ${p.code}` : ''}: ${message}`;
}

/** Node and oclif stack frames: `    at Compiler._compile… (file:…:280:19)`. */
const STACK_FRAME = /^\s+at\s+\S/;
/** oclif's exit, thrown as an error with a stack after every failure. */
const OCLIF_EXIT = /^Error: EEXIT: \d+\s*$/;
/** What graph-cli prints on any non-zero exit of the compiler, true or not, with links to report it. */
const ASC_CRASHED = /^Error: The AssemblyScript compiler crashed when compiling this file/;

/**
 * The CLI's output as a person wants to read it in a terminal: without stack frames, without the
 * thrown copy of the `✖` line it already printed, and without the "compiler crashed, contact us"
 * text graph-cli adds after an ordinary compile error. Fed whole lines (as runGraph hands them
 * on); nothing a parser needs is dropped, since extractProblems reads the full output.
 */
export class CliNoiseFilter {
  private failures: string[] = [];
  private compileErrors = 0;
  /** Inside a block being dropped: until its stack frames end. */
  private dropping = false;
  private lastStep = '';

  push(text: string): string {
    const kept: string[] = [];
    const lines = text.split('\n');
    const tail = lines.pop() ?? '';
    for (const line of lines) if (this.keep(line.replace(/\r$/, ''))) kept.push(line);
    if (tail && this.keep(tail)) kept.push(tail);
    return kept.length ? `${kept.join('\n')}${text.endsWith('\n') && kept.length ? '\n' : ''}` : '';
  }

  private keep(line: string): boolean {
    if (STACK_FRAME.test(line)) return false;
    if (ASC_HEAD.test(line)) this.compileErrors++;
    if (this.dropping) {
      // The dropped block runs up to its stack; a new head line ends it.
      if (/^\S/.test(line) && !/^(Suggestion:|Also, please|- (Discord|Github))/.test(line)) this.dropping = false;
      else return false;
    }
    const failed = /^✖ (.*)$/.exec(line);
    if (failed) this.failures.push(failed[1]);
    if (OCLIF_EXIT.test(line)) return false;
    const thrown = /^Error: (.+)$/.exec(line);
    if (thrown && this.failures.some((f) => f.endsWith(thrown[1].trim()))) return false;
    if (ASC_CRASHED.test(line) && this.compileErrors > 0) {
      this.dropping = true;
      return false;
    }
    // The spinner prints its step again before each sub-step; once is enough.
    if (/^- \S/.test(line)) {
      if (line === this.lastStep) return false;
      this.lastStep = line;
    }
    return true;
  }
}
