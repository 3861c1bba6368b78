/**
 * What validation reads: the text of open documents (unsaved edits included) before the disk.
 * Modification times always come from the disk: staleness compares what `graph codegen` read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { capFor, fileErrorOf, FileReadError, readTextFileAsync, readTextFileIfExists } from '../../../core/files';
import type { FileSource } from '../../../core/subgraph/types';
import { isManifestCopy } from '../../../core/subgraph/copies';

/** A YAML document that reads like a manifest whatever its name (e.g. subgraph-sepolia.yaml). */
export function looksLikeManifest(document: vscode.TextDocument): boolean {
  if (document.languageId !== 'yaml' || document.uri.scheme !== 'file' || isManifestCopy(document.uri.fsPath)) return false;
  const text = document.getText();
  return /^specVersion[ \t]*:/m.test(text) && /^dataSources[ \t]*:/m.test(text);
}

function openDocuments(): Map<string, vscode.TextDocument> {
  const open = new Map<string, vscode.TextDocument>();
  for (const d of vscode.workspace.textDocuments) if (d.uri.scheme === 'file') open.set(path.normalize(d.uri.fsPath), d);
  return open;
}

/** Open documents first, then the disk, read as they are asked for. */
export function liveFiles(): FileSource {
  const open = openDocuments();
  return {
    read: (file) => open.get(path.normalize(file))?.getText() ?? readSync(file),
    mtime: statSync,
  };
}

/**
 * A FileSource for one validation run: the files the last run read are loaded from the disk
 * beforehand without blocking (anything else is read when asked), and every path asked for is
 * recorded, so the next run knows what the manifest depends on, with the version of the open
 * document it was read from (undefined: the disk).
 */
export async function prefetchedFiles(paths: Iterable<string>): Promise<{ files: FileSource; used: Map<string, number | undefined> }> {
  // The text, or why it could not be read (kept to be thrown when validation asks for it).
  const texts = new Map<string, string | FileReadError | undefined>();
  const mtimes = new Map<string, number | undefined>();
  await Promise.all(
    [...paths].map(async (file) => {
      const [text, stat] = await Promise.all([
        readTextFileAsync(file, capFor(file)).catch((err: unknown) => {
          const problem = fileErrorOf(file, err);
          return problem.kind === 'missing' ? undefined : problem;
        }),
        fs.promises.stat(file).catch(() => undefined),
      ]);
      texts.set(file, text);
      mtimes.set(file, stat?.mtimeMs);
    }),
  );
  // Taken after the reads: a document opened meanwhile is seen with its unsaved text.
  const open = openDocuments();
  const used = new Map<string, number | undefined>();
  const files: FileSource = {
    read(file) {
      const key = path.normalize(file);
      const document = open.get(key);
      used.set(key, document?.version);
      if (document) return document.getText();
      if (!texts.has(key)) return readSync(key);
      const text = texts.get(key);
      if (text instanceof FileReadError) throw text;
      return text;
    },
    mtime(file) {
      const key = path.normalize(file);
      if (!used.has(key)) used.set(key, undefined);
      return mtimes.has(key) ? mtimes.get(key) : statSync(key);
    },
  };
  return { files, used };
}

/** The core's rules: regular files only, a cap per kind; missing gives undefined, else throws. */
function readSync(file: string): string | undefined {
  return readTextFileIfExists(file, capFor(file));
}

function statSync(file: string): number | undefined {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}
