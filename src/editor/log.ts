import * as vscode from 'vscode';
import { redactText } from '../core/redact';

/** The one log channel. Every line passes through redaction so no key reaches the log. */
export class Log {
  readonly channel: vscode.LogOutputChannel;
  constructor() {
    this.channel = vscode.window.createOutputChannel('Chaindeck', { log: true });
  }
  info(message: string): void {
    this.channel.info(redactText(message));
  }
  warn(message: string): void {
    this.channel.warn(redactText(message));
  }
  error(message: string): void {
    this.channel.error(redactText(message));
  }
  show(): void {
    this.channel.show(true);
  }
  dispose(): void {
    this.channel.dispose();
  }
}
