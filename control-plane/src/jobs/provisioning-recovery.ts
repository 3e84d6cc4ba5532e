// Purchases whose provisioning process died (a crash, a kill -9, a deploy) are taken over by
// whichever replica sees their lease run out first, and ended: as the node's container, or
// failed with the charge given back (containers/purchase-service.ts recoverAbandoned).
import type { Scheduler } from './scheduler.js';

export interface ProvisioningRecoveryDeps {
  /** containers: PurchaseService.recoverAbandoned */
  purchases: { recoverAbandoned(now?: Date): Promise<number> };
  intervalMs: number;
}

export function scheduleProvisioningRecovery(scheduler: Scheduler, d: ProvisioningRecoveryDeps): void {
  scheduler.every('taking over abandoned purchases', d.intervalMs, async () => {
    await d.purchases.recoverAbandoned();
  });
}
