/**
 * Prometheus's text exposition format (version 0.0.4, what graph-node's metrics port serves) read
 * into samples: `name{label="value",…} value [timestamp]`, `#` lines skipped. Our own short reader:
 * we need samples only (no types, no exemplars), and the one npm parser of the format has not been
 * released since 2019. Bounded: the text by the caller's byte cap, the samples and labels here.
 */

export interface MetricSample {
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

/** More than any graph-node serves (a few thousand lines for dozens of deployments); past it the text is refused. */
export const METRICS_MAX_SAMPLES = 200_000;
const MAX_LABELS = 32;
/** graph-node's longest lines are a few hundred characters; a longer one is skipped unread, as reading it char by char would hold the extension host for seconds. */
export const METRICS_MAX_LINE_CHARS = 64 * 1024;

const NAME = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const LABEL = /[a-zA-Z_][a-zA-Z0-9_]*/y;
const ESCAPES: Record<string, string> = { n: '\n', '\\': '\\', '"': '"' };

/** The samples of a metrics text; a line that is not a sample is skipped (counted in `skipped`). */
export function parsePrometheusText(text: string): { samples: MetricSample[]; skipped: number } {
  const samples: MetricSample[] = [];
  let skipped = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const long = end - start > METRICS_MAX_LINE_CHARS;
    const line = long ? '' : text.slice(start, end).trim();
    start = end + 1;
    if (long) {
      skipped++;
      continue;
    }
    if (!line || line.startsWith('#')) continue;
    const sample = parseLine(line);
    if (!sample) {
      skipped++;
      continue;
    }
    if (samples.length >= METRICS_MAX_SAMPLES) throw new Error(`the metrics have more than ${METRICS_MAX_SAMPLES} samples`);
    samples.push(sample);
  }
  return { samples, skipped };
}

function parseLine(line: string): MetricSample | undefined {
  NAME.lastIndex = 0;
  const name = NAME.exec(line)?.[0];
  if (!name) return undefined;
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === '{') {
    at++;
    for (let count = 0; ; count++) {
      while (line[at] === ' ') at++;
      if (line[at] === '}') break;
      if (count >= MAX_LABELS) return undefined;
      LABEL.lastIndex = at;
      const key = LABEL.exec(line)?.[0];
      if (!key || line[at + key.length] !== '=' || line[at + key.length + 1] !== '"') return undefined;
      at += key.length + 2;
      let value = '';
      for (;;) {
        const c = line[at++];
        if (c === undefined) return undefined;
        if (c === '"') break;
        if (c !== '\\') value += c;
        else {
          value += ESCAPES[line[at]] ?? `\\${line[at] ?? ''}`;
          at++;
        }
      }
      labels[key] = value;
      while (line[at] === ' ') at++;
      if (line[at] === ',') at++;
      else if (line[at] !== '}') return undefined;
    }
    at++;
  }
  // The value, then an optional timestamp (ignored).
  const rest = line.slice(at).trim().split(/\s+/);
  if (!rest[0] || rest.length > 2) return undefined;
  const value = parseValue(rest[0]);
  return value === undefined ? undefined : { name, labels, value };
}

function parseValue(token: string): number | undefined {
  if (token === '+Inf' || token === 'Inf') return Infinity;
  if (token === '-Inf') return -Infinity;
  if (token === 'NaN') return NaN;
  const value = Number(token);
  return Number.isNaN(value) ? undefined : value;
}
