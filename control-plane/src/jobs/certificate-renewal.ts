// Agent certificates (tls 'platform' nodes) with less than 30 days left are renewed: each
// replica asks every interval, the queue keeps one run per interval whichever replica asks, so
// two replicas never renew one node at once (the agent keeps one pending key). A failure is
// logged (modules/fleet/renewal.ts) and the node is tried again at the next run.
import type { Queue, Scheduler } from './scheduler.js';

const RENEW = 'fleet-renew-certificates';

export interface CertificateRenewalJobDeps {
  /** fleet: CertificateRenewal.renewDue */
  renewal: { renewDue(): Promise<{ renewed: number[]; failed: number[] }> };
  intervalMs: number;
}

export class CertificateRenewalJob {
  private readonly queue: Queue<{ slot: number }>;

  constructor(scheduler: Scheduler, d: CertificateRenewalJobDeps) {
    this.queue = scheduler.queue<{ slot: number }>(
      RENEW,
      { retryLimit: 0, expireInSeconds: 1800 },
      async () => {
        await d.renewal.renewDue();
      },
    );
    scheduler.every('asking for certificate renewals', d.intervalMs, () =>
      this.queue.sendThrottled(
        { slot: Math.floor(Date.now() / d.intervalMs) },
        Math.max(1, Math.round(d.intervalMs / 1000)),
      ),
    );
  }
}
