import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { markdownTable, percentile, readResults, report } from '../bench/results.js';
import { withTable } from '../bench/run-all.js';

// The bench harness's bookkeeping (benches themselves are not tests: nothing here times anything).
describe('bench results', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const resultsFile = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-results-'));
    dirs.push(dir);
    return path.join(dir, 'bench-results.json');
  };

  it('computes the ratio to the baseline and judges the goal on it, or on our figure without one', () => {
    const file = resultsFile();
    const entry = report(
      'api',
      [
        {
          what: 'health',
          unit: 'req/s',
          ours: 6000,
          baseline: { label: 'bare http', value: 10000 },
          goal: { op: '>=', value: 0.6 },
        },
        {
          what: 'balance',
          unit: 'req/s',
          ours: 2000,
          baseline: { label: 'bare http', value: 10000 },
          goal: { op: '>=', value: 0.3 },
        },
        { what: 'market p99', unit: 'ms', ours: 25, goal: { op: '<', value: 20 } },
        { what: 'no goal', unit: 'ms', ours: 1 },
      ],
      file,
    );
    expect(entry.measurements.map((m) => [m.ratio, m.met])).toEqual([
      [0.6, true],
      [0.2, false],
      [null, false],
      [null, null],
    ]);
    const table = markdownTable(readResults(file));
    expect(table).toContain(
      '| api | health | 6,000 req/s | bare http: 10,000 req/s | 0.60 | ratio ≥ 0.6 | yes |',
    );
    expect(table).toContain('| api | market p99 | 25.0 ms | — | — | < 20.0 ms | no |');
  });

  it('keeps other benches when one reports again, and replaces that one', () => {
    const file = resultsFile();
    report('logs', [{ what: 'lines/s', unit: 'lines/s', ours: 1 }], file);
    report('api', [{ what: 'health', unit: 'req/s', ours: 1 }], file);
    report('logs', [{ what: 'lines/s', unit: 'lines/s', ours: 2 }], file);
    const results = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(results.benches).sort()).toEqual(['api', 'logs']);
    expect(results.benches.logs.measurements[0].ours).toBe(2);
  });

  it('writes the table between the README markers only', () => {
    const readme = 'a\n<!-- bench:start -->\nold\n<!-- bench:end -->\nb\n';
    expect(withTable(readme, '| t |')).toBe('a\n<!-- bench:start -->\n| t |\n<!-- bench:end -->\nb\n');
    expect(withTable('no markers', '| t |')).toBe('no markers');
  });

  it('takes the nearest-rank percentile', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile([7], 99)).toBe(7);
  });
});
