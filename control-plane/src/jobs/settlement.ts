// Settlement: every interval the running time of every container is charged (metering), then the
// lifecycle checks run (balances, paid times, releases) and stale payments are closed. Each
// replica asks for the slot's settlement; the queue keeps one job per slot and settlement_runs'
// primary key refuses a slot twice, so a slot is settled once whatever the number of replicas.
import type { ContainerLifecycleJobs } from './container-lifecycle.js';
import type { Queue, Scheduler } from './scheduler.js';

const SETTLE = 'billing-settle';

export interface SettlementDeps {
  /** billing: Metering.settleAll */
  metering: { settleAll(now: Date): Promise<{ meters: number; chargedFen: number; userIds: number[] }> };
  /** billing: SettlementRunsRepository */
  runs: {
    claim(slot: number, replica: string, now: Date): Promise<boolean>;
    record(slot: number, result: { meters: number; chargedFen: number }): Promise<void>;
  };
  /** billing: PaymentsService.settleStale */
  payments: { settleStale(now: Date): Promise<void> };
  lifecycle: ContainerLifecycleJobs;
  intervalMs: number;
  /** Names this replica in settlement_runs. */
  replica: string;
  log: (message: string, err?: unknown) => void;
  /** Told how long each settlement this replica ran took (the metrics' histogram). */
  timed?: (seconds: number, outcome: 'ok' | 'failed') => void;
}

export class SettlementJob {
  private readonly queue: Queue<{ slot: number }>;

  /** This replica's name in settlement_runs. */
  get replica(): string {
    return this.d.replica;
  }

  constructor(
    scheduler: Scheduler,
    private readonly d: SettlementDeps,
  ) {
    this.queue = scheduler.queue<{ slot: number }>(
      SETTLE,
      { retryLimit: 0, expireInSeconds: 600 },
      async (job) => {
        await this.settle(job.slot);
      },
    );
    scheduler.every('asking for a settlement', d.intervalMs, () => this.request());
  }

  private async request(): Promise<void> {
    const slot = Math.floor(Date.now() / this.d.intervalMs);
    await this.queue.sendThrottled({ slot }, Math.max(1, Math.round(this.d.intervalMs / 1000)));
  }

  /** One settlement: meters, low balances, expiries and releases. Runs once per slot. */
  async settle(slot: number, now = new Date()): Promise<boolean> {
    if (!(await this.d.runs.claim(slot, this.d.replica, now))) return false;
    const started = performance.now();
    let outcome: 'ok' | 'failed' = 'failed';
    try {
      const result = await this.d.metering.settleAll(now);
      await this.d.runs.record(slot, result);
      await this.d.lifecycle.check(result.userIds, now);
      await this.d.payments.settleStale(now);
      outcome = 'ok';
      return true;
    } finally {
      this.d.timed?.((performance.now() - started) / 1000, outcome);
    }
  }
}
