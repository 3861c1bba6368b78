/**
 * Reading a command's words by its option table. node:util's parseArgs splits them into tokens
 * (`--name value`, `--name=value`, the `--` that ends the options); one walk over the tokens then
 * applies the table, in order, with our messages. parseArgs' strict mode is not what we need: it
 * refuses a value that starts with - (`--timeout -5`, `--tx-index -1`) and an argument that does
 * (`platform nodes -ND-1`), which the commands take and then check with messages of their own.
 */
import { parseArgs } from 'node:util';

/** One option of a command: what it takes, and its line in the usage. */
export interface OptionSpec {
  /** 'string' takes a value (`--name VALUE` or `--name=VALUE`, whatever it starts with); 'boolean' is a switch. */
  type: 'string' | 'boolean';
  /** The value's name in the usage (URL, MS). */
  value?: string;
  /** Its text in the usage; an option without one (an alias) is not listed. */
  help?: string;
  /** Another name for that option: its value goes there, and the last one given wins. */
  aliasOf?: string;
  /** Checks the value where it stands (undefined: the words end without one). Without it, the value is only required. */
  check?(value: string | undefined): void;
}

export type OptionTable = Record<string, OptionSpec>;

/** How a command reads its words, beyond its option table. */
export interface ArgRules<O extends OptionTable> {
  options: O;
  /** Options refused by name, with the reason: a secret on the command line shows in the process list and the shell history. */
  refused?: Readonly<Record<string, string>>;
  /** `--` ends the options, so the words after it are arguments whatever they start with; without it, `--` is an unknown option. */
  endOfOptions?: boolean;
  /** A value after a space may not start with --: an option there means the value was forgotten. */
  noOptionAsValue?: boolean;
  /**
   * Every word that starts with - (but `-` itself) is an option, and an unknown one is named as
   * typed, =value included. Otherwise a word with a single - is an argument (a negative number,
   * an ID), and an unknown option is named without its value.
   */
  dashedWordsAreOptions?: boolean;
  /** The message for an argument, where the command takes none: every value follows its option. */
  refuseArgument?(word: string): string;
}

export type OptionValues<O extends OptionTable> = { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };

export interface ReadArgs<O extends OptionTable> {
  values: OptionValues<O>;
  /** The arguments (the words that are neither options nor their values), in order. */
  positionals: string[];
}

/** A command line that cannot be run as written: exit status 2, with the usage. */
export class UsageError extends Error {}

/** Reads `args` by `rules`; the first word that breaks them is a UsageError. Repeated options: the last wins. */
export function readArgs<O extends OptionTable>(args: readonly string[], rules: ArgRules<O>): ReadArgs<O> {
  // No command has one-letter options, and parseArgs would split a word such as -ND-1 into
  // flags (its - into a `--`): words with a single - pass through it masked, as plain words (no
  // argument can hold a NUL), and are read back as typed.
  const masked = args.map((word, i) => (/^-[^-]/.test(word) ? `\0${i}` : word));
  const isMasked = (value: string) => value.startsWith('\0');
  const typed = (value: string) => (isMasked(value) ? args[Number(value.slice(1))] : value);
  const types = Object.fromEntries(Object.entries(rules.options).map(([name, option]) => [name, { type: option.type }]));
  const { tokens } = parseArgs({ args: masked, options: types, strict: false, allowPositionals: true, tokens: true });
  const values: Record<string, string | boolean | undefined> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      const word = typed(token.value);
      if (rules.dashedWordsAreOptions && isMasked(token.value)) throw new UsageError(`unknown option ${word}`);
      if (rules.refuseArgument) throw new UsageError(rules.refuseArgument(word));
      positionals.push(word);
      continue;
    }
    if (token.kind === 'option-terminator') {
      if (!rules.endOfOptions) throw new UsageError('unknown option --');
      continue;
    }
    const word = args[token.index];
    const refusal = rules.refused && Object.hasOwn(rules.refused, token.name) ? rules.refused[token.name] : undefined;
    if (refusal !== undefined) throw new UsageError(refusal);
    const option = Object.hasOwn(rules.options, token.name) ? rules.options[token.name] : undefined;
    if (!option || (option.type === 'boolean' && token.inlineValue)) throw new UsageError(`unknown option ${rules.dashedWordsAreOptions ? word : word.split('=')[0]}`);
    const value = token.value === undefined ? undefined : typed(token.value);
    if (option.type === 'string') {
      if (option.check) option.check(value);
      else if (value === undefined || (rules.noOptionAsValue && !token.inlineValue && value.startsWith('--'))) throw new UsageError(`${token.rawName} needs a value`);
    }
    values[option.aliasOf ?? token.name] = option.type === 'boolean' ? true : value;
  }
  return { values: values as OptionValues<O>, positionals };
}
