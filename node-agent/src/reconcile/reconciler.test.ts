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

  it('spreads the rounds of agents that subscribed together over the interval', async () => {
    const started = Date.now();
    const firstRounds: number[] = [];
    const stops = Array.from({ length: 20 }, () => {
      const reconciler = new Reconciler(async () => [], 1000);
      let reports = 0;
      return reconciler.subscribe(() => {
        // The first report answers the subscription; the second is the first round.
        if (++reports === 2) firstRounds.push(Date.now() - started);
      });
    });
    await new Promise((r) => setTimeout(r, 1150));
    for (const stop of stops) stop();
    expect(firstRounds).toHaveLength(20);
    expect(Math.max(...firstRounds)).toBeLessThan(1150);
    // Twenty uniform points in a second all within 300 ms of each other: about 1 in 10^9.
    expect(Math.max(...firstRounds) - Math.min(...firstRounds)).toBeGreaterThan(300);
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
