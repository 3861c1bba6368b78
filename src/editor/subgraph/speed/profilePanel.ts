/**
 * "Show Indexing Profile" on a local deployment: a panel with its speed, its handlers' times and
 * the eth_call share from the node's metrics, and the `calls:` hint placed in the subgraph.yaml it
 * was deployed from (when deployed from this workspace). One panel per deployment, refreshed with
 * each sample while it indexes; everything shown is inert text.
 */
import * as vscode from 'vscode';
import { profileOf } from '../../../core/indexing/speed/profile';
import { speedSummary } from '../../../core/indexing/speed/speed';
import { oneLine } from '../../../core/inert';
import { redactText } from '../../../core/redact';
import type { ProfileContract, ProfileView } from '../../../webview/profile/protocol';
import { PANEL_TYPES } from '../../ids';
import { readWorkspaceText } from '../../readFile';
import { createPanel } from '../../webview/panel';
import { HostMessenger } from '../../webview/messenger';
import type { Log } from '../../log';
import type { LocalDeployment, LocalNode } from '../localnode/localNode';
import type { IndexingSpeed } from './speed';

export class ProfilePanels implements vscode.Disposable {
  private readonly open = new Map<string, vscode.WebviewPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly local: LocalNode,
    private readonly speed: IndexingSpeed,
    private readonly log: Log,
  ) {}

  /** Shows the profile of the deployment in `arg` (a tree element or a deployment id); resolves with what it shows (for tests). */
  async show(arg: unknown): Promise<ProfileView | undefined> {
    const id = deploymentId(arg);
    const deployment = id && this.local.deployments().find((d) => d.id === id);
    if (!deployment) {
      void vscode.window.showInformationMessage('Choose a deployment of the running local graph-node to see its profile.');
      return undefined;
    }
    const existing = this.open.get(deployment.id);
    if (existing) {
      existing.reveal();
      return this.view(deployment);
    }
    const panel = createPanel(this.extensionUri, { viewType: PANEL_TYPES.profile, title: `Profile: ${titleOf(deployment)}`, entry: 'profile', iconPath: new vscode.ThemeIcon('dashboard') });
    this.open.set(deployment.id, panel);
    let last: ProfileView | undefined;
    const messenger = new HostMessenger<ProfileContract>(
      panel,
      {
        ready: () => last ?? null,
        openManifest: async ({ line }) => {
          const manifest = this.current(deployment.id)?.manifest;
          if (!manifest) return;
          const at = new vscode.Position(Math.max(0, Math.floor(line)), 0);
          await vscode.window.showTextDocument(manifest, { selection: new vscode.Range(at, at) });
        },
      },
      (method, message) => this.log.error(`Profile panel: ${method} failed: ${message}`),
    );
    const refresh = async () => {
      const now = this.current(deployment.id);
      if (!now) return;
      last = await this.view(now);
      messenger.notify('profile', last);
    };
    const watching = this.speed.watch();
    const changes = this.speed.onDidChange(() => void refresh());
    panel.onDidDispose(() => {
      this.open.delete(deployment.id);
      watching.dispose();
      changes.dispose();
      messenger.dispose();
    });
    await this.speed.sampleNow();
    last = await this.view(deployment);
    messenger.notify('profile', last);
    return last;
  }

  private current(id: string): LocalDeployment | undefined {
    return this.local.deployments().find((d) => d.id === id);
  }

  /** What the panel shows of a deployment now. */
  async view(deployment: LocalDeployment): Promise<ProfileView> {
    const metrics = this.speed.metricsOf(deployment.id);
    const manifestText = deployment.manifest ? await readWorkspaceText(deployment.manifest).catch(() => undefined) : undefined;
    const profile = metrics && profileOf(metrics, manifestText);
    const text = (s: string) => oneLine(redactText(s));
    return {
      title: text(titleOf(deployment)),
      deployment: text(deployment.id),
      speed: speedSummary(this.speed.speedOf(deployment.id)),
      handlers: (profile?.handlers ?? []).map((h) => ({ handler: text(h.handler), count: h.count, totalMs: h.seconds * 1000, meanMs: h.meanMs, share: h.share })),
      ethCall: {
        count: profile?.ethCall.count ?? 0,
        totalMs: (profile?.ethCall.seconds ?? 0) * 1000,
        share: profile?.ethCall.share ?? 0,
        methods: (profile?.ethCall.methods ?? []).map((m) => ({ contract: text(m.contract), method: text(m.method), count: m.count, meanMs: m.count ? (m.seconds * 1000) / m.count : 0 })),
      },
      hint: profile?.hint && {
        message: text(profile.hint.message),
        // A line to open only where the manifest is known.
        places: deployment.manifest ? profile.hint.places.map((p) => ({ handler: text(p.handler), line: p.line })) : [],
      },
      problem: this.speed.problem ? text(`The metrics could not be read: ${this.speed.problem}`) : metrics ? undefined : 'The node’s metrics name no handler of this deployment yet.',
      at: Date.now(),
    };
  }

  dispose(): void {
    for (const panel of [...this.open.values()]) panel.dispose();
  }
}

const titleOf = (d: LocalDeployment) => d.names.join(', ') || d.id;

function deploymentId(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const element = arg as { deployment?: { id?: unknown } } | undefined;
  return typeof element?.deployment?.id === 'string' ? element.deployment.id : undefined;
}
