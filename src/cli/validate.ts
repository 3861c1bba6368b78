/**
 * `chaindeck validate`: checks subgraph.yaml with its schema, ABIs and mapping files, printing
 * one line per finding in the `FILE:LINE:COL: severity: MESSAGE` form problem matchers read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FILE_CAPS, fileErrorOf, FileReadError, readTextFile } from '../core/files';
import { inertJson, inertLine } from '../core/inert';
import type { Finding } from '../core/subgraph/types';
import { UsageError, type OptionTable } from './args';
import { defineCommand } from './command';

const options = {
  format: {
    type: 'string',
    value: 'text|json',
    help: 'text (default): one line per finding, FILE:LINE:COL: SEVERITY: MESSAGE (SEVERITY: error, warning or info)\njson: a JSON array of {file, line, column, endLine, endColumn, severity, code, message}',
    check(value: string | undefined) {
      if (value !== 'text' && value !== 'json') throw new UsageError(`--format takes text or json, not ${value === undefined ? 'nothing' : `'${value}'`}`);
    },
  },
} satisfies OptionTable;

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

export const DEFAULT_MANIFEST = 'subgraph.yaml';

/**
 * The manifest file `given` names, a folder meaning its subgraph.yaml (shared by `validate`,
 * `subgraph test` and `subgraph capture-test`); a UsageError when it is missing (`howToName` says
 * how to give another, shown when the default was missing) or a folder without subgraph.yaml. A
 * file that is there but cannot be read is returned: reading it names the cause (exit 1).
 */
export function manifestPath(given: string, howToName: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(given);
  } catch (err) {
    const problem = fileErrorOf(given, err);
    if (problem.kind !== 'missing') return given;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(problem.message);
    throw new UsageError(`${given}: no such file${given === DEFAULT_MANIFEST ? ` (run in the subgraph folder, or ${howToName})` : ''}`);
  }
  if (!stat.isDirectory()) return given;
  const inside = path.join(given, DEFAULT_MANIFEST);
  if (!fs.existsSync(inside)) throw new UsageError(`${given} is a folder without a ${DEFAULT_MANIFEST}`);
  return inside;
}

interface Line {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Finding['severity'];
  code: string;
  message: string;
}

export const validateCommand = defineCommand({
  name: 'validate',
  summary: 'Check subgraph.yaml, its schema, ABIs and mappings',
  usage: ['[PATH] [--format text|json]'],
  description: 'Its keys, types, versions, network and addresses, and the files it names (schema.graphql, ABIs, mapping), are checked as graph-cli and graph-node would, and more.',
  arguments: [['PATH', 'the manifest, or a folder holding subgraph.yaml (default ./subgraph.yaml)']],
  options,
  dashedWordsAreOptions: true,
  notes: `Lines and columns count from 1. FILE is the manifest as given, other files relative to the current folder. Findings are sorted by file and position. Info findings are printed too but, like warnings, do not fail the run.

Only regular files are read (not folders, pipes or devices), each up to a cap: ${mib(FILE_CAPS.manifest)} for the manifest, ${mib(FILE_CAPS.schema)} for the schema, ${mib(FILE_CAPS.mapping)} for a mapping, ${mib(FILE_CAPS.abi)} for an ABI.`,
  exit: {
    done: 'no errors (warnings and info findings do not fail the run)',
    failed: 'at least one error, or something could not be checked (a file that cannot be read, a check that failed)',
    usageExample: 'a manifest that does not exist',
  },

  check({ values, positionals }): { manifest: string; format: 'text' | 'json' } {
    if (positionals.length > 1) throw new UsageError(`give one manifest, not ${positionals.length}: ${positionals.join(' ')}`);
    return { manifest: manifestPath(positionals[0] ?? DEFAULT_MANIFEST, 'give the manifest path'), format: values.format === 'json' ? 'json' : 'text' };
  },

  async work({ manifest, format }, io) {
    let text: string;
    try {
      text = readTextFile(manifest, FILE_CAPS.manifest);
    } catch (err) {
      // A manifest that vanished since the check above is still a usage error; any other reason
      // (a pipe, a device, too large, no permission) is a failure to validate.
      if (err instanceof FileReadError && err.kind === 'missing') throw new UsageError(err.message);
      throw err;
    }
    // Loaded here, not at start: the checks are most of the CLI's code.
    const [{ validateSubgraph }, { nodeFileSource }] = await Promise.all([import('../core/subgraph/rules/validate'), import('../core/subgraph/fileSource')]);
    const { findings, incomplete } = validateSubgraph(manifest, nodeFileSource(), { text });
    const display = (file: string) => safeStart(file === manifest ? manifest : path.relative(process.cwd(), path.resolve(file)) || file);
    const lines: Line[] = findings
      .map((f) => ({
        file: display(f.file),
        line: f.range.start.line + 1,
        column: f.range.start.character + 1,
        endLine: f.range.end.line + 1,
        endColumn: f.range.end.character + 1,
        severity: f.severity,
        code: f.code,
        message: f.message,
      }))
      .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column);
    if (format === 'json') io.out(`${inertJson(lines)}\n`);
    // File names come from the manifest too (messages are one line already): one finding, one line.
    else for (const l of lines) io.out(`${inertLine(l.file)}:${l.line}:${l.column}: ${l.severity}: ${l.message}\n`);
    const count = (s: Finding['severity']) => lines.filter((l) => l.severity === s).length;
    const errors = count('error');
    if (format === 'text') {
      io.err(`${inertLine(display(manifest))}: ${errors} error${errors === 1 ? '' : 's'}, ${count('warning')} warning${count('warning') === 1 ? '' : 's'}\n`);
    }
    // Not everything checked is not a pass, whatever the findings say.
    for (const reason of incomplete) io.err(`chaindeck validate: could not check everything: ${reason}\n`);
    return errors || incomplete.length ? 1 : 0;
  },
});

/**
 * A line that starts with `::` (after spaces) is a workflow command to a CI runner, so a file name
 * that starts with anything but a letter, digit, `_`, `.` or `/` is printed as `./name`.
 */
function safeStart(file: string): string {
  return /^[\p{L}\p{N}_./]/u.test(file) ? file : `./${file}`;
}
