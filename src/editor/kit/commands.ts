/**
 * The one way a command is registered: by id, resolving with what it returns (tests and other
 * extensions call some with options), and reporting its own failures, never throwing them to the
 * host (an error message and a log line; a cancellation only a log line). A command that waits
 * on a long call runs that call in `withProgress` (kit/progress) once it has asked its questions.
 */
import * as vscode from 'vscode';
import type { Log } from '../log';
import { reportError } from './errors';

// The arguments are whatever the caller passed: a tree element, a URI, an options object, nothing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandRun = (...args: any[]) => unknown;

export function registerCommand(log: Log, id: string, run: CommandRun): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await run(...args);
    } catch (error) {
      reportError(log, id, error);
      return undefined;
    }
  });
}
