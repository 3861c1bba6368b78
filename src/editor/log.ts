import * as vscode from 'vscode';
import { inertText } from '../core/inert';
import { redactText } from '../core/redact';

/** The one log channel. Every line is redacted, so no key reaches the log, and made inert. */
export class Log {
  readonly channel: vscode.LogOutputChannel;
  constructor() {
    this.channel = vscode.window.createOutputChannel('Chaindeck', { log: true });
  }
  info(message: string): void {
    this.channel.info(redactText(inertText(message)));
  }
  warn(message: string): void {
    this.channel.warn(redactText(inertText(message)));
  }
  error(message: string): void {
    this.channel.error(redactText(inertText(message)));
  }
  show(): void {
    this.channel.show(true);
  }
  dispose(): void {
    this.channel.dispose();
  }
}
