/**
 * "Show Indexing Profile" on a local deployment: a panel with its speed, its handlers' times and
 * the eth_call share from the node's metrics, and the `calls:` hint placed in the subgraph.yaml it
 * was deployed from (when deployed from this workspace). One panel per deployment, refreshed with
 * each sample while it indexes; everything shown is inert text.
 */
import * as vscode from 'vscode';
import type { ProfileContract, ProfileView } from '../../../webview/profile/protocol';
import { PANEL_TYPES } from '../../ids';
import { readWorkspaceText } from '../../readFile';
import { createPanel } from '../../webview/panel';
import { HostMessenger } from '../../webview/messenger';
import type { Log } from '../../log';
import type { LocalDeployment, LocalNode } from '../localnode/localNode';
import { inertCell, profileView } from './profileView';
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
    const panel = createPanel(this.extensionUri, {
      viewType: PANEL_TYPES.profile,
      title: `Profile: ${inertCell(titleOf(deployment))}`,
      entry: 'profile',
      iconPath: new vscode.ThemeIcon('dashboard'),
    });
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
    const manifestText = deployment.manifest ? await readWorkspaceText(deployment.manifest).catch(() => undefined) : undefined;
    return profileView({
      title: titleOf(deployment),
      deployment: deployment.id,
      speed: this.speed.speedOf(deployment.id),
      metrics: this.speed.metricsOf(deployment.id),
      manifestText,
      problem: this.speed.problem,
      at: Date.now(),
    });
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
