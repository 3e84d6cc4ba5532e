// Volume deletes whose process died or stopped (删除中 with a lease run out) are taken over by
// whichever replica sees it first, and followed to their end (storage/deletion.ts).
import type { Scheduler } from './scheduler.js';

export interface VolumeDeletionRecoveryDeps {
  /** storage: VolumeDeletions.recoverAbandoned */
  deletions: { recoverAbandoned(now?: Date): Promise<number> };
  intervalMs: number;
}

export function scheduleVolumeDeletionRecovery(scheduler: Scheduler, d: VolumeDeletionRecoveryDeps): void {
  scheduler.every('taking over abandoned volume deletes', d.intervalMs, async () => {
    await d.deletions.recoverAbandoned();
  });
}
