/**
 * Failures as the user and the log see them. `errorText` is the one way an error becomes text in
 * the editor; `reportError` the one way a failure is shown: an error message with "Show Log" and
 * a log line, or, for a cancellation the user asked for, only a log line.
 */
import * as vscode from 'vscode';
import { isCancellation } from '../../core/cancel';
import { redactText } from '../../core/redact';
import type { Log } from '../log';

/** An error's message (or the thrown value itself) as text. Core's messages are redacted already; anything else passes through redaction to be sure. */
export function errorText(error: unknown): string {
  return redactText(error instanceof Error ? error.message : String(error));
}

/**
 * Logs a failure of `doing` (with `detail`, e.g. a node's own words, in parentheses) and returns
 * its text; a cancellation is logged as such and returns undefined.
 */
export function logFailure(log: Log, doing: string, error: unknown, detail?: string): string | undefined {
  if (isCancellation(error)) {
    log.info(`${doing}: cancelled`);
    return undefined;
  }
  const message = errorText(error);
  log.error(`${doing}: ${message}${detail ? ` (${redactText(detail)})` : ''}`);
  return message;
}

/** Shows and logs a failure of `doing` (`detail` goes only to the log). A cancellation is only logged. */
export function reportError(log: Log, doing: string, error: unknown, detail?: string): void {
  const message = logFailure(log, doing, error, detail);
  if (message === undefined) return;
  void vscode.window.showErrorMessage(message, 'Show Log').then((choice) => {
    if (choice) log.show();
  });
}

/** The live message under an input box: what `check` throws about the text, or undefined when it passes. */
export function problemOf(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return errorText(error);
  }
}
