/**
 * What the Profile panel shows of names a node chose (handler, contract, method, deployment
 * names): inert text, one line each, however hostile the metrics' label values.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readNodeMetrics } from '../../../../../src/core/indexing/speed/metrics';
import { parsePrometheusText } from '../../../../../src/core/indexing/speed/prometheus';
import { profileView } from '../../../../../src/editor/subgraph/speed/profileView';

// A label value may hold any character: escaped newline and quote, raw ESC (an OSC that sets a
// terminal's title, a CSI colour), BEL, C1 CSI and a right-to-left override.
const HOSTILE = '<img src=x onerror=alert(1)>\\n\\"q\\\\ \x1b]0;pwn\x07 \x1b[31mred \x9b2J \u202eevil\u2066';

test('handler, contract and method names from the metrics reach the page inert: no control, escape or bidi character, one line', () => {
  const text = [
    `deployment_handler_execution_time_count{deployment="Q",handler="${HOSTILE}"} 5`,
    `deployment_handler_execution_time_sum{deployment="Q",handler="${HOSTILE}"} 1`,
    `deployment_eth_call_execution_time_count{deployment="Q",contract_name="${HOSTILE}",method="${HOSTILE}"} 50`,
    `deployment_eth_call_execution_time_sum{deployment="Q",contract_name="${HOSTILE}",method="${HOSTILE}"} 0.9`,
  ].join('\n');
  const metrics = readNodeMetrics(parsePrometheusText(text).samples).deployments.get('Q')!;
  const view = profileView({ title: `name\u202e\x1b[2J`, deployment: 'Q', metrics, at: 0 });
  const shown = [view.title, view.deployment, ...view.handlers.map((h) => h.handler), ...view.ethCall.methods.flatMap((m) => [m.contract, m.method]), view.hint?.message ?? ''];
  assert.ok(view.hint, 'eth_call dominates: the hint quotes the contract and method');
  assert.match(view.handlers[0].handler, /^<img src=x onerror=alert\(1\)>\\n"q\\ /, 'the name kept, as text');
  // eslint-disable-next-line no-control-regex -- controls are what must not be there
  for (const s of shown) assert.doesNotMatch(s, /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/, JSON.stringify(s));
});
