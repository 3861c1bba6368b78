/**
 * The local graph-node's indexing speed in the editor: its metrics endpoint sampled every
 * SPEED_SAMPLE_INTERVAL_MS while a deployment indexes and someone looks (the Subgraphs view
 * visible or a Profile panel open), and not otherwise: once everything is synced or nobody
 * looks, the sampling stops until the node's statuses show a deployment indexing again.
 */
import * as vscode from 'vscode';
import type { DeploymentMetrics } from '../../../core/indexing/speed/metrics';
import { SpeedSampler } from '../../../core/indexing/speed/sampler';
import type { Speed } from '../../../core/indexing/speed/speed';
import { isPlaceholderDeployment } from '../../../core/localnode/status';
import type { LocalNode } from '../localnode/localNode';

export class IndexingSpeed implements vscode.Disposable {
  private sampler?: SpeedSampler;
  private viewVisible = false;
  /** Open Profile panels (each keeps the sampling on while its deployment indexes). */
  private watchers = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  /** New samples were taken. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly local: LocalNode) {
    this.subscriptions = [local.onDidChange(() => this.update()), this.changed];
  }

  /** The Subgraphs view's visibility (sampling only while shown). */
  setViewVisible(visible: boolean): void {
    this.viewVisible = visible;
    this.update();
  }

  /** A panel that shows speed: sampling runs while it is open; dispose the result when it closes. */
  watch(): vscode.Disposable {
    this.watchers++;
    this.update();
    return { dispose: () => (this.watchers--, this.update()) };
  }

  speedOf(deployment: string): Speed | undefined {
    return this.sampler?.tracker.speed(deployment);
  }

  metricsOf(deployment: string): DeploymentMetrics | undefined {
    return this.sampler?.metrics?.deployments.get(deployment);
  }

  /** Why the last read failed, if it did. */
  get problem(): string | undefined {
    return this.sampler?.problem;
  }

  /** One read now (a panel opening on a synced deployment still wants its numbers). */
  async sampleNow(): Promise<void> {
    const sampler = this.ensureSampler();
    if (!sampler) return;
    await sampler.sample(AbortSignal.timeout(10_000));
    this.changed.fire();
  }

  private ensureSampler(): SpeedSampler | undefined {
    const url = this.local.urls?.metrics;
    if (!url) {
      this.stopSampler();
      return undefined;
    }
    if (this.sampler && this.samplerUrl !== url) this.stopSampler();
    if (!this.sampler) {
      this.sampler = new SpeedSampler({ kind: 'metrics', url });
      this.samplerUrl = url;
    }
    return this.sampler;
  }

  private samplerUrl?: string;

  private stopSampler(): void {
    this.sampler?.stop();
    this.sampler = undefined;
    this.samplerUrl = undefined;
  }

  /** Whether any of the user's deployments is behind, by the index node's statuses or the last metrics. */
  private indexing(): boolean {
    if (this.local.deployments().some((d) => !d.status.synced && d.status.health !== 'failed')) return true;
    const metrics = this.sampler?.metrics;
    return !!metrics && [...metrics.deployments.values()].some((d) => !isPlaceholderDeployment(d.deployment) && d.synced === false);
  }

  private update(): void {
    const looking = this.viewVisible || this.watchers > 0;
    if (!looking || !this.indexing()) {
      this.sampler?.stop();
      return;
    }
    const sampler = this.ensureSampler();
    if (!sampler || sampler.active) return;
    sampler.start(() => {
      this.changed.fire();
      // Stop once everything is synced; the node's next statuses start it again when something indexes.
      return (this.viewVisible || this.watchers > 0) && this.indexing();
    });
  }

  dispose(): void {
    this.stopSampler();
    for (const s of this.subscriptions) s.dispose();
  }
}
