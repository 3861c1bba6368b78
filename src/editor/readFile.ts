/**
 * Reading a workspace file in the editor with the core's rules (core/files): regular files only,
 * a cap per kind, never blocking on a pipe or a device. Files on disk go through the core itself;
 * a virtual workspace (no disk) is checked with the same statProblem before it is read.
 */
import * as vscode from 'vscode';
import { FILE_CAPS, fileErrorOf, FileReadError, readTextFileAsync, statProblem } from '../core/files';

/** The text of a workspace file. Throws FileReadError (with a message naming the file). */
export async function readWorkspaceText(uri: vscode.Uri, cap: number = FILE_CAPS.text): Promise<string> {
  if (uri.scheme === 'file') return readTextFileAsync(uri.fsPath, cap);
  const shown = uri.toString(true);
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch (err) {
    throw err instanceof vscode.FileSystemError && err.code === 'FileNotFound'
      ? new FileReadError('missing', shown, `${shown} does not exist`)
      : err instanceof vscode.FileSystemError && err.code === 'NoPermissions'
        ? fileErrorOf(shown, { code: 'EACCES' })
        : fileErrorOf(shown, err);
  }
  const problem = statProblem(
    shown,
    {
      isFile: () => (stat.type & vscode.FileType.File) !== 0,
      isDirectory: () => (stat.type & vscode.FileType.Directory) !== 0,
      size: stat.size,
    },
    cap,
  );
  if (problem) throw problem;
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.byteLength > cap) throw statProblem(shown, { isFile: () => true, isDirectory: () => false, size: bytes.byteLength }, cap)!;
  return new TextDecoder().decode(bytes);
}
