/**
 * The one layout of `chaindeck NAME --help`: the usage forms, the summary and what more there is
 * to say, then the arguments, options and exit statuses in one column, notes, the environment
 * variables, and examples. Texts are wrapped to the width here; a line break in a text is kept.
 */
import type { OptionTable } from './args';

/** A line of a table: the term (an option, an argument, a variable) and its text. */
export type Row = readonly [term: string, text: string];

export interface CommandHelp {
  name: string;
  /** One line, in the imperative: the command's line in `chaindeck --help` too. */
  summary: string;
  /** The forms of the command line after `chaindeck NAME`; a line break continues a long form. */
  usage: readonly string[];
  /** What more the user needs to know of what it does, after the summary. */
  description?: string;
  arguments?: readonly Row[];
  /** Paragraphs after the options: the finer points of the output and the inputs. */
  notes?: string;
  environment?: readonly Row[];
  /** What exit status 0 (done) and 1 (failed) mean here; 2 is always a usage error, of which an example may be given. */
  exit: { done: string; failed: string; usageExample?: string };
  examples?: readonly string[];
}

const WIDTH = 100;
/** Terms are padded to at least this, so most commands share one column. */
const MIN_TERM = 14;
const HELP_ROW: Row = ['--help, -h', 'print this help and exit'];
const USAGE_ERROR = 'a usage error: the message, then this help, on stderr';

/** Lines of `text` no longer than `width` (a longer word stays whole); its own line breaks are kept. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const hard of text.split('\n')) {
    if (hard.length <= width) {
      lines.push(hard); // as written, its indentation included
      continue;
    }
    let line = '';
    for (const word of hard.split(' ')) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** Rows as two columns: the terms padded to `termWidth`, each text wrapped beside its term. */
export function renderRows(rows: readonly Row[], termWidth: number): string {
  const indent = ' '.repeat(2 + termWidth + 2);
  return rows
    .map(([term, text]) =>
      wrap(text, WIDTH - indent.length)
        .map((line, i) => `${i ? indent : `  ${term.padEnd(termWidth)}  `}${line}`.trimEnd())
        .join('\n'),
    )
    .join('\n');
}

const paragraph = (text: string) => wrap(text, WIDTH).join('\n');

export function renderUsage(help: CommandHelp, optionTable: OptionTable): string {
  const command = `chaindeck ${help.name} `;
  const forms = help.usage.flatMap((form) => form.split('\n').map((line, i) => (i ? ' '.repeat(command.length) : command) + line));
  const options: Row[] = Object.entries(optionTable)
    .filter(([, option]) => option.help !== undefined)
    .map(([name, option]) => [`--${name}${option.value ? ` ${option.value}` : ''}`, option.help!]);
  options.push(HELP_ROW);
  const exit: Row[] = [
    ['0', `${help.exit.done}.`],
    ['1', `${help.exit.failed}.`],
    ['2', `${USAGE_ERROR}${help.exit.usageExample ? `\n(for example ${help.exit.usageExample})` : ''}.`],
  ];
  const column = Math.max(MIN_TERM, ...[...(help.arguments ?? []), ...options, ...exit].map(([term]) => term.length));
  const sections = [
    forms.map((line, i) => `${i ? '       ' : 'Usage: '}${line}`).join('\n'),
    paragraph(`${help.summary}.${help.description ? `\n${help.description}` : ''}`),
    help.arguments?.length ? `Arguments:\n${renderRows(help.arguments, column)}` : '',
    `Options:\n${renderRows(options, column)}`,
    help.notes ? paragraph(help.notes) : '',
    help.environment?.length ? `Environment:\n${renderRows(help.environment, Math.max(MIN_TERM, ...help.environment.map(([name]) => name.length)))}` : '',
    `Exit status:\n${renderRows(exit, column)}`,
    help.examples?.length ? `Examples:\n${help.examples.map((line) => `  ${line}`).join('\n')}` : '',
  ];
  return `${sections.filter(Boolean).join('\n\n')}\n`;
}
