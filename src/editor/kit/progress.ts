/**
 * The one bridge between VS Code's progress and core's cancellation: a task runs under
 * `withProgress` and gets an AbortSignal that the notification's Cancel button aborts, so the
 * core call it is handed to stops at once (and rejects as a cancellation).
 */
import * as vscode from 'vscode';

interface ProgressOptions {
  /** A notification with a Cancel button (the default), or a view's own progress bar. */
  location?: vscode.ProgressLocation.Notification | { viewId: string };
  /** Another reason to stop, e.g. a panel's Cancel button or a refresh: it aborts the task's signal too. */
  signal?: AbortSignal;
  /** false: a notification without Cancel, for work that is cancelled elsewhere (a task's terminal). */
  cancellable?: false;
}

/** Reports a step: a message, and how much of the whole (in percent) it adds. */
export type Report = (message: string, increment?: number) => void;

export function withProgress<T>(title: string | undefined, task: (signal: AbortSignal, report: Report) => Promise<T>, options: ProgressOptions = {}): Promise<T> {
  const location = options.location ?? vscode.ProgressLocation.Notification;
  const cancellable = location === vscode.ProgressLocation.Notification && options.cancellable !== false;
  return Promise.resolve(
    vscode.window.withProgress({ location, title, cancellable }, async (progress, token) => {
      const cancel = new AbortController();
      const subscription = token.onCancellationRequested(() => cancel.abort());
      const signal = options.signal ? AbortSignal.any([cancel.signal, options.signal]) : cancel.signal;
      try {
        return await task(signal, (message, increment) => progress.report({ message, increment }));
      } finally {
        subscription.dispose();
      }
    }),
  );
}
