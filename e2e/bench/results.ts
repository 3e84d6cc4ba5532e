/**
 * What every bench in e2e/bench reports: each measurement prints our figure, the baseline measured
 * in the same run and their ratio, and is merged into bench-results.json at the repository root
 * (one entry per bench, replaced when the bench runs again). `npm run bench` (run-all.ts) writes
 * the README's table from that file. A bench never fails on a figure: it measures.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export const RESULTS_FILE = fileURLToPath(new URL('../../bench-results.json', import.meta.url));

export type GoalOp = '<=' | '<' | '>=' | '>';

export interface Measurement {
  /** What was measured, e.g. `GET /api/health`. */
  what: string;
  /** The unit of `ours` and of the baseline's value, e.g. `req/s`, `ms`, `lines/s`. */
  unit: string;
  ours: number;
  /** The same thing done the plain way in the same run; the ratio is ours / baseline. */
  baseline?: { label: string; value: number };
  /** On the ratio when there is a baseline, else on `ours` itself (in `unit`). */
  goal?: { op: GoalOp; value: number };
  /** Anything a reader needs to read the figure (p99, runs, sizes). */
  note?: string;
}

export interface ReportedMeasurement extends Measurement {
  ratio: number | null;
  met: boolean | null;
}

export interface BenchEntry {
  at: string;
  machine: { cpus: number; load: number[]; node: string };
  measurements: ReportedMeasurement[];
}

export interface BenchResults {
  benches: Record<string, BenchEntry>;
}

const OPS: Record<GoalOp, (a: number, b: number) => boolean> = {
  '<=': (a, b) => a <= b,
  '<': (a, b) => a < b,
  '>=': (a, b) => a >= b,
  '>': (a, b) => a > b,
};
const GOAL_TEXT: Record<GoalOp, string> = { '<=': '≤', '<': '<', '>=': '≥', '>': '>' };

export function evaluate(m: Measurement): ReportedMeasurement {
  const ratio = m.baseline && m.baseline.value !== 0 ? m.ours / m.baseline.value : null;
  const subject = m.baseline ? ratio : m.ours;
  const met = m.goal && subject !== null ? OPS[m.goal.op](subject, m.goal.value) : null;
  return { ...m, ratio, met };
}

export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs >= 100) return Math.round(n).toLocaleString('en-US');
  if (abs >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

export function goalText(m: Measurement): string {
  if (!m.goal) return '';
  const subject = m.baseline ? 'ratio' : m.unit;
  return m.baseline
    ? `${subject} ${GOAL_TEXT[m.goal.op]} ${m.goal.value}`
    : `${GOAL_TEXT[m.goal.op]} ${formatNumber(m.goal.value)} ${subject}`;
}

export function readResults(file = RESULTS_FILE): BenchResults {
  if (!existsSync(file)) return { benches: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
    return parsed && typeof parsed.benches === 'object' ? parsed : { benches: {} };
  } catch {
    return { benches: {} };
  }
}

/** Prints the measurements of one bench and records them in bench-results.json. */
export function report(bench: string, measurements: Measurement[], file = RESULTS_FILE): BenchEntry {
  const entry: BenchEntry = {
    at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      load: os.loadavg().map((l) => Number(l.toFixed(2))),
      node: process.version,
    },
    measurements: measurements.map(evaluate),
  };
  console.log(`\n[${bench}] load ${entry.machine.load.join(' ')}, ${entry.machine.cpus} CPUs`);
  for (const m of entry.measurements) {
    const parts = [`ours ${formatNumber(m.ours)} ${m.unit}`];
    if (m.baseline) parts.push(`${m.baseline.label} ${formatNumber(m.baseline.value)} ${m.unit}`);
    if (m.ratio !== null) parts.push(`ratio ${m.ratio.toFixed(2)}`);
    if (m.goal) parts.push(`goal ${goalText(m)}: ${m.met ? 'met' : 'NOT met'}`);
    if (m.note) parts.push(m.note);
    console.log(`[${bench}] ${m.what}: ${parts.join(', ')}`);
  }
  const results = readResults(file);
  results.benches[bench] = entry;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(tmp, file);
  return entry;
}

/** The README's table: one row per measurement of every bench that has run. */
export function markdownTable(results: BenchResults): string {
  const rows = ['| bench | what | ours | baseline | ratio | goal | met |', '|---|---|---|---|---|---|---|'];
  for (const [bench, entry] of Object.entries(results.benches)) {
    for (const m of entry.measurements) {
      rows.push(
        [
          bench,
          m.what + (m.note ? ` (${m.note})` : ''),
          `${formatNumber(m.ours)} ${m.unit}`,
          m.baseline ? `${m.baseline.label}: ${formatNumber(m.baseline.value)} ${m.unit}` : '—',
          m.ratio === null ? '—' : m.ratio.toFixed(2),
          goalText(m) || '—',
          m.met === null ? '—' : m.met ? 'yes' : 'no',
        ]
          .map((cell) => cell.replaceAll('|', '\\|'))
          .join(' | ')
          .replace(/^/, '| ')
          .concat(' |'),
      );
    }
  }
  return rows.join('\n');
}

/** Percentile (0-100) of a list of numbers, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}
