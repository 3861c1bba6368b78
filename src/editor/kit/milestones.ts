/**
 * What the user has done that the Get Started walkthrough's steps complete on, whatever way it
 * was done (a palette command, a CodeLens, a tree menu, an earlier session): kept in the global
 * state and mirrored in context keys, which package.json's `onContext:` completion events read.
 */
import * as vscode from 'vscode';
import { CONTEXT_KEYS } from '../ids';

type Milestone = typeof CONTEXT_KEYS.callSent | typeof CONTEXT_KEYS.storageBrowsed;
const MILESTONES: readonly Milestone[] = [CONTEXT_KEYS.callSent, CONTEXT_KEYS.storageBrowsed];

export class Milestones {
  constructor(private readonly state: vscode.Memento) {
    // Done in an earlier session: the walkthrough shows it done here too.
    for (const key of MILESTONES) if (state.get(key) === true) void setContext(key, true);
  }

  /** Records that the user did it; a second time costs nothing. */
  reached(key: Milestone): void {
    if (this.state.get(key) === true) return;
    void this.state.update(key, true);
    void setContext(key, true);
  }
}

/** Sets a context key of package.json's `when` clauses and completion events. */
function setContext(key: string, value: boolean): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}
