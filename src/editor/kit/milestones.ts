/**
 * What the user has done that the Get Started walkthrough's steps complete on, whatever way it
 * was done (a palette command, a CodeLens, a tree menu, a node written into settings by hand):
 * mirrored in context keys, which package.json's `onContext:` completion events read.
 */
import * as vscode from 'vscode';
import { CONTEXT_KEYS, WALKTHROUGH } from '../ids';

type Milestone = keyof typeof WALKTHROUGH.stepOf;

export class Milestones {
  private readonly reachedKeys = new Set<Milestone>();

  constructor(private readonly extensionId: string) {}

  /** Records that the user did it (a call answered, storage read); a second time costs nothing. */
  reached(key: typeof CONTEXT_KEYS.callSent | typeof CONTEXT_KEYS.storageBrowsed): void {
    if (this.reachedKeys.has(key)) return;
    this.reachedKeys.add(key);
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
