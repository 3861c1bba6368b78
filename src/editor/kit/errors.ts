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

/** Shows and logs a failure of `doing`. A cancellation is only logged. */
export function reportError(log: Log, doing: string, error: unknown): void {
  if (isCancellation(error)) {
    log.info(`${doing}: cancelled`);
    return;
  }
  const message = errorText(error);
  log.error(`${doing}: ${message}`);
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
