/**
 * What the user has done that the Get Started walkthrough's steps complete on, whatever way it
 * was done (a palette command, a CodeLens, a tree menu, an earlier session): mirrored in context
 * keys, which package.json's `onContext:` completion events read; a call sent and storage read
 * are kept in the global state, a configured node is read from the settings.
 */
import * as vscode from 'vscode';
import { CONTEXT_KEYS, WALKTHROUGH } from '../ids';

type Milestone = keyof typeof WALKTHROUGH.stepOf;
type Kept = typeof CONTEXT_KEYS.callSent | typeof CONTEXT_KEYS.storageBrowsed;
const KEPT: readonly Kept[] = [CONTEXT_KEYS.callSent, CONTEXT_KEYS.storageBrowsed];

export class Milestones {
  constructor(
    private readonly state: vscode.Memento,
    private readonly extensionId: string,
  ) {
    // Done in an earlier session: the walkthrough shows it done here too.
    for (const key of KEPT) if (state.get(key) === true) this.show(key, true);
  }

  /** Records that the user did it; a second time costs nothing. */
  reached(key: Kept): void {
    if (this.state.get(key) === true) return;
    void this.state.update(key, true);
    this.show(key, true);
  }

  /** Whether any node is configured: the first step's state, read from the settings on every change. */
  nodesConfigured(yes: boolean): void {
    this.show(CONTEXT_KEYS.nodesConfigured, yes);
  }

  private show(key: Milestone, yes: boolean): void {
    void vscode.commands.executeCommand('setContext', key, yes);
    if (!yes) return;
    // VS Code registers an extension's walkthrough late (it waits up to 5 s for experiments):
    // a key already true by then counts as seen without completing the step, as on a workspace
    // whose subgraph.yaml activates the extension at startup. So the step is also completed
    // directly; VS Code keeps that even before the walkthrough is registered (and then rejects).
    const step = `${this.extensionId}#${WALKTHROUGH.id}#${WALKTHROUGH.stepOf[key]}`;
    vscode.commands.executeCommand('welcome.markStepComplete', step).then(undefined, () => undefined);
  }
}
