import { describe, expect, it } from 'vitest';
import type { ManagedContainer } from '../containers/types.js';
import { type ReconcileReport, Reconciler } from './reconciler.js';

describe('the reconciler', () => {
  it('reports right away to a new listener and then every interval', async () => {
    const reports: ReconcileReport[] = [];
    const reconciler = new Reconciler(async () => [{ containerId: 'a' } as ManagedContainer], 50);
    const unsubscribe = reconciler.subscribe((r) => reports.push(r));
    await new Promise((r) => setTimeout(r, 180));
    unsubscribe();
    expect(reports.length).toBeGreaterThanOrEqual(3);
    expect(reports[0]?.containers.map((c) => c.containerId)).toEqual(['a']);
    const count = reports.length;
    await new Promise((r) => setTimeout(r, 120));
    expect(reports.length).toBe(count);
  });

  it('reports nothing (rather than an empty list) while Docker cannot be asked, and logs why', async () => {
    const lines: string[] = [];
    const reports: ReconcileReport[] = [];
    const reconciler = new Reconciler(
      async () => {
        throw new Error('docker down');
      },
      30,
      (line) => lines.push(line),
    );
    const unsubscribe = reconciler.subscribe((r) => reports.push(r));
    await new Promise((r) => setTimeout(r, 100));
    unsubscribe();
    expect(reports).toEqual([]);
    expect(lines.some((l) => l.includes('docker down'))).toBe(true);
  });
});
