// A strict reader of Prometheus' text exposition format (version 0.0.4), for the tests of both
// metrics endpoints (the control plane's tests import it too): every line is a comment (# HELP,
// # TYPE), blank, or a sample `name{label="value",...} value [timestamp]`; anything else throws,
// so a test that scrapes also checks that what it scraped is well formed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Metric family → its TYPE (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  help: Map<string, string>;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** A value as Prometheus reads it (Go's ParseFloat: NaN and Inf in any case; prom-client writes `Nan`). */
function parseValue(text: string, line: string): number {
  if (/^\+?inf$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text))
    throw new Error(`bad value "${text}" in: ${line}`);
  return Number(text);
}

/** Reads `{a="x",b="y"}` from the start of `rest`; returns the labels and what follows. */
function parseLabels(rest: string, line: string): { labels: Record<string, string>; after: string } {
  const labels: Record<string, string> = {};
  let i = 1; // after '{'
  for (;;) {
    if (rest[i] === '}') return { labels, after: rest.slice(i + 1) };
    const name = LABEL_NAME.exec(rest.slice(i))?.[0];
    if (!name || rest[i + name.length] !== '=' || rest[i + name.length + 1] !== '"') {
      throw new Error(`bad label at ${i} in: ${line}`);
    }
    i += name.length + 2;
    let value = '';
    for (;;) {
      const c = rest[i];
      if (c === undefined) throw new Error(`unterminated label value in: ${line}`);
      if (c === '"') break;
      if (c === '\\') {
        const next = rest[i + 1];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape in: ${line}`);
        i += 2;
        continue;
      }
      value += c;
      i += 1;
    }
    if (name in labels) throw new Error(`label ${name} twice in: ${line}`);
    labels[name] = value;
    i += 1; // the closing quote
    if (rest[i] === ',') i += 1;
    else if (rest[i] !== '}') throw new Error(`expected , or } at ${i} in: ${line}`);
  }
}

export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line);
      if (!m) continue; // any other comment
      const [, kind, name = '', rest = ''] = m;
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`unknown type in: ${line}`);
        if (types.has(name)) throw new Error(`TYPE of ${name} given twice`);
        types.set(name, rest);
      } else {
        help.set(name, rest);
      }
      continue;
    }
    const name = NAME.exec(line)?.[0];
    if (!name) throw new Error(`not a sample: ${line}`);
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) ({ labels, after: rest } = parseLabels(rest, line));
    const parts = rest.trim().split(/\s+/);
    if (!rest.startsWith(' ') || parts.length < 1 || parts.length > 2) throw new Error(`bad sample: ${line}`);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`bad timestamp in: ${line}`);
    samples.push({ name, labels, value: parseValue(parts[0] ?? '', line) });
  }
  return { types, help, samples };
}

/** The samples of `name` whose labels include `labels`. */
export function samplesOf(expo: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return expo.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

/** The one sample of `name` with these labels (undefined when none; throws when several match). */
export function sampleValue(
  expo: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samplesOf(expo, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** The metrics the agents export (the rest of deploy/grafana's are the control plane's). */
export const AGENT_METRIC = /^gpucloud_(gpu_|container_|docker_|agent_)/;

/** Every gpucloud_* metric the fleet dashboard's queries (and its variables) read. */
export function dashboardMetrics(): string[] {
  const file = fileURLToPath(new URL('../../deploy/grafana/gpucloud-fleet.json', import.meta.url));
  const text = readFileSync(file, 'utf8');
  const dashboard = JSON.parse(text) as { panels: { targets?: { expr: string }[] }[] };
  const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
  if (exprs.length === 0) throw new Error(`no queries in ${file}`);
  // The variables' label_values(...) too: every name anywhere in the file.
  return [...new Set(text.match(/\bgpucloud_[a-z_]+/g) ?? [])];
}

/**
 * Whether the exposition has the metric: a family with its TYPE (a histogram's _bucket, _sum and
 * _count included, observed or not), or a sample of that name.
 */
export function exports(expo: Exposition, name: string): boolean {
  const histogram = /^(.*)_(bucket|sum|count)$/.exec(name)?.[1];
  return (
    expo.types.has(name) ||
    (histogram !== undefined && expo.types.get(histogram) === 'histogram') ||
    expo.samples.some((s) => s.name === name)
  );
}
