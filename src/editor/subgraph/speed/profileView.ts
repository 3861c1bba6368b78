/**
 * What the Profile panel shows of a deployment, from its last metrics: every piece of text from
 * the node (handler, contract and method names, the deployment's names) or from its subgraph.yaml
 * made inert here, once, so the page can render it as it comes.
 */
import type { DeploymentMetrics } from '../../../core/indexing/speed/metrics';
import { profileOf } from '../../../core/indexing/speed/profile';
import { speedSummary, type Speed } from '../../../core/indexing/speed/speed';
import { inertLine, oneLine } from '../../../core/inert';
import { redactText } from '../../../core/redact';
import type { ProfileView } from '../../../webview/profile/protocol';

export interface ProfileInput {
  title: string;
  deployment: string;
  speed?: Speed;
  metrics?: DeploymentMetrics;
  /** The subgraph.yaml it was deployed from, when known: places the hint and its links. */
  manifestText?: string;
  /** Why the last read failed, if it did. */
  problem?: string;
  at: number;
}

/** Outside text as one inert, bounded line: no control, escape or bidi character reaches the page. */
export const inertCell = (s: string) => oneLine(inertLine(redactText(s)));

export function profileView(input: ProfileInput): ProfileView {
  const { metrics } = input;
  const profile = metrics && profileOf(metrics, input.manifestText);
  const text = inertCell;
  return {
    title: text(input.title),
    deployment: text(input.deployment),
    speed: speedSummary(input.speed),
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
      places: input.manifestText !== undefined ? profile.hint.places.map((p) => ({ handler: text(p.handler), line: p.line })) : [],
    },
    problem: input.problem ? text(`The metrics could not be read: ${input.problem}`) : metrics ? undefined : 'The node’s metrics name no handler of this deployment yet.',
    at: input.at,
  };
}
