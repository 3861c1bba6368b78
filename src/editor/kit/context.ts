/**
 * What every feature is registered with: built once in extension.ts, handed to each feature's
 * register function. (Features that work on the configured nodes get the Nodes feature with it:
 * EditorContextWithNodes, in nodes/feature.ts.)
 */
import type * as vscode from 'vscode';
import type { Log } from '../log';
import type { Secrets } from '../secrets';
import type { Milestones } from './milestones';
import type { Settings } from './settings';

export interface EditorContext {
  extension: vscode.ExtensionContext;
  /** The one log channel. */
  log: Log;
  secrets: Secrets;
  settings: Settings;
  /** What the user has done, for the walkthrough. */
  milestones: Milestones;
}
