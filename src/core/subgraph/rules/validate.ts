/**
 * Validation of a subgraph: subgraph.yaml with the schema, ABIs and mapping files it names.
 * Never throws on any text: broken input gives findings (or none). A manifest with YAML syntax
 * errors gets only those (like graph-cli, which stops there too).
 */
import { fileErrorOf } from '../../files';
import { inertLine } from '../../inert';
import { Context, ValidationCache } from './context';
import { checkShape } from './checkShape';
import { checkDataSources } from './dataSources';
import { parseManifest, type ManifestDoc } from '../manifest/manifestDoc';
import { checkProject, loadSchema } from './project';
import { checkProtocols } from './protocols';
import { checkToolchain } from './toolchain';
import { LineIndex } from '../text';
import type { FileSource, Finding } from '../types';
import { VALUE_RULES } from './values';

export interface ValidateOptions {
  /** The manifest's text when it differs from what `files` reads (an unsaved editor buffer). */
  text?: string;
  /** Reuse parsed ABIs, schemas and mappings across runs (keyed by content, so always safe). */
  cache?: ValidationCache;
  /** Parse with the `yaml` package only (for comparisons). */
  yamlOnly?: boolean;
}

export interface ValidationResult {
  findings: Finding[];
  /** The parsed manifest, for completions, hovers and key-path lookups; undefined when unreadable. */
  doc?: ManifestDoc;
  /**
   * Why not everything could be checked (the manifest or a file it names could not be read, a
   * rule failed): empty when the findings are the whole story. The CLI fails on any.
   */
  incomplete: string[];
}

/**
 * Validates the subgraph whose manifest is `manifestFile` (absolute, or relative to the current
 * folder: findings name files the same way). An unreadable manifest gives no findings and no doc.
 */
export function validateSubgraph(manifestFile: string, files: FileSource, options: ValidateOptions = {}): ValidationResult {
  let text: string | undefined;
  try {
    text = options.text ?? files.read(manifestFile);
  } catch (err) {
    return { findings: [], incomplete: [inertLine(fileErrorOf(manifestFile, err).message)] };
  }
  if (text === undefined) return { findings: [], incomplete: [inertLine(`${manifestFile} does not exist`)] };
  let doc: ManifestDoc;
  try {
    doc = parseManifest(text, { yamlOnly: options.yamlOnly });
  } catch (err) {
    // The yaml package gives up on some inputs (a stack overflow on deep nesting).
    doc = { text, lines: new LineIndex(text), root: undefined, parser: 'yaml', problems: [] };
    const message = `The manifest could not be parsed: ${err instanceof Error ? err.message : String(err)}`;
    doc.problems.push({ start: 0, end: Math.min(1, text.length), message, code: 'yaml-syntax', severity: 'error' });
  }
  const ctx = new Context(manifestFile, doc, files, options.cache ?? new ValidationCache());
  const problemAt = new Set<number>();
  for (const p of doc.problems) {
    // The yaml package often reports one mistake twice at the same place; once is enough.
    if (problemAt.has(p.start)) continue;
    problemAt.add(p.start);
    ctx.flag(p, p.severity, p.code, p.message);
  }
  // After a syntax error the tree is the parser's guess: rules on it would mislead.
  if (doc.problems.some((p) => p.severity === 'error')) return { findings: sortFindings(oneLineEach(ctx.findings)), doc, incomplete: [] };
  const incomplete: string[] = [];
  try {
    checkShape(ctx, VALUE_RULES);
    checkProtocols(ctx);
    const schema = loadSchema(ctx);
    checkDataSources(ctx, schema?.info);
    checkProject(ctx, schema);
    checkToolchain(ctx, schema?.info);
  } catch (err) {
    // A rule tripping over an unforeseen shape must not hide the findings made so far, nor
    // pass for a clean result: it is an error, and the run is incomplete.
    const message = `Chaindeck could not finish checking this manifest: ${err instanceof Error ? err.message : String(err)}`;
    ctx.flag({ start: 0, end: 0 }, 'error', 'internal-error', message);
    incomplete.push(message);
  }
  for (const problem of ctx.fileProblems()) incomplete.push(problem.message);
  incomplete.push(...new Set(ctx.unchecked));
  return { findings: sortFindings(dedupe(oneLineEach(ctx.findings))), doc, incomplete: incomplete.map(inertLine) };
}

/**
 * One finding, one line: messages quote the manifest, file names and other tools' errors, any of
 * which may hold line breaks or terminal controls (a hostile pull request could otherwise print a
 * forged finding or CI command of its own).
 */
function oneLineEach(findings: Finding[]): Finding[] {
  return findings.map((f) => {
    const message = inertLine(f.message);
    return message === f.message ? f : { ...f, message };
  });
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.file}\0${f.range.start.line}:${f.range.start.character}-${f.range.end.line}:${f.range.end.character}\0${f.code}\0${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** By file, then position, then severity (errors first). */
export function sortFindings(findings: Finding[]): Finding[] {
  const rank = { error: 0, warning: 1, info: 2 };
  return [...findings].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || rank[a.severity] - rank[b.severity],
  );
}
