// What happens to containers without anyone asking: an hourly one stops when its owner's balance
// runs out, a prepaid one stops at the end of its paid time (its owner warned a day before), and
// an hourly one stopped for 3 days is released (warned a day before; lifecycle-settings.ts). The settlement job runs the
// checks after it has metered; stops and releases are queue jobs, retried until the node answers.

import type { LifecycleSettings } from '../lifecycle-settings.js';
import type { ContainerStatus } from '../modules/containers/repository.js';
import { ACTIVE } from '../modules/containers/status.js';
import type { Queue, Scheduler } from './scheduler.js';

const STOP = 'billing-container-stop';
const RELEASE = 'billing-container-release';

type StopJob = { containerId: string; reason: 'balance' | 'expired' };

/** The containers module, as the lifecycle needs it (ContainersService.lifecycle and the system's actions). */
export interface LifecycleContainers {
  activeHourlyOf(userIds: number[]): Promise<string[]>;
  prepaidDue(now: Date): Promise<string[]>;
  prepaidEndingBy(now: Date, until: Date): Promise<{ id: string; expires_at: Date }[]>;
  hourlyHaltedSince(before: Date): Promise<{ id: string; since: Date }[]>;
  state(id: string): Promise<
    | {
        status: string;
        expires_at: Date | null;
        started_at: Date | null;
        stopped_at: Date | null;
        created_at: Date;
      }
    | undefined
  >;
  stop(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
}

/** The billing module's balances, as the lifecycle needs them. */
export interface LifecycleBalances {
  flagLowBalances(
    userIds: number[],
  ): Promise<{ id: number; balance_fen: number; alert_threshold_fen: number }[]>;
  exhausted(userIds: number[]): Promise<number[]>;
}

/** The billing module's notices (e-mail / SMS / 站内信, each sent once). */
export interface LifecycleNotices {
  lowBalance(userId: number, balanceFen: number, thresholdFen: number): Promise<void>;
  once(
    containerId: string,
    kind: 'expiry_warning' | 'release_warning' | 'stopped_balance' | 'stopped_expired' | 'released',
    refAt: Date,
  ): Promise<void>;
}

export class ContainerLifecycleJobs {
  private readonly stops: Queue<StopJob>;
  private readonly releases: Queue<{ containerId: string }>;

  constructor(
    scheduler: Scheduler,
    private readonly d: {
      containers: LifecycleContainers;
      balances: LifecycleBalances;
      notices: LifecycleNotices;
      settings: LifecycleSettings;
    },
  ) {
    this.stops = scheduler.queue<StopJob>(
      STOP,
      { retryLimit: 20, retryDelay: 15, retryBackoff: true },
      (job) => this.stopContainer(job),
    );
    this.releases = scheduler.queue<{ containerId: string }>(
      RELEASE,
      { retryLimit: 20, retryDelay: 60, retryBackoff: true },
      (job) => this.releaseContainer(job.containerId),
    );
  }

  /** After a settlement: the balances that fell, the paid times that end, the stops that last. */
  async check(userIds: number[], now: Date): Promise<void> {
    await this.balances(userIds);
    await this.expiries(now);
    await this.releasesDue(now);
  }

  /** Users whose metered balance fell: warned below their threshold, stopped at zero. */
  private async balances(userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    const warned = await this.d.balances.flagLowBalances(userIds);
    for (const u of warned) await this.d.notices.lowBalance(u.id, u.balance_fen, u.alert_threshold_fen);
    const broke = await this.d.containers.activeHourlyOf(await this.d.balances.exhausted(userIds));
    for (const id of broke) await this.enqueueStop({ containerId: id, reason: 'balance' });
  }

  /** Prepaid containers stop at their end time; their users are warned a day before. */
  private async expiries(now: Date): Promise<void> {
    for (const id of await this.d.containers.prepaidDue(now)) {
      await this.enqueueStop({ containerId: id, reason: 'expired' });
    }
    const soon = await this.d.containers.prepaidEndingBy(
      now,
      new Date(now.getTime() + this.d.settings.warnBeforeMs),
    );
    for (const c of soon) await this.d.notices.once(c.id, 'expiry_warning', c.expires_at);
  }

  /** Hourly containers stopped for 3 days are released; a day before, their users are warned. */
  private async releasesDue(now: Date): Promise<void> {
    const halted = await this.d.containers.hourlyHaltedSince(
      new Date(now.getTime() - (this.d.settings.releaseAfterMs - this.d.settings.warnBeforeMs)),
    );
    for (const c of halted) {
      if (c.since.getTime() <= now.getTime() - this.d.settings.releaseAfterMs) {
        await this.releases.send({ containerId: c.id }, { singletonKey: c.id, singletonSeconds: 300 });
      } else {
        await this.d.notices.once(c.id, 'release_warning', c.since);
      }
    }
  }

  private async enqueueStop(job: StopJob): Promise<void> {
    await this.stops.send(job, { singletonKey: job.containerId, singletonSeconds: 60 });
  }

  private async stopContainer(job: StopJob): Promise<void> {
    const c = await this.d.containers.state(job.containerId);
    if (!c || !ACTIVE.includes(c.status as ContainerStatus)) return;
    await this.d.containers.stop(job.containerId);
    if (job.reason === 'balance') {
      await this.d.notices.once(job.containerId, 'stopped_balance', c.started_at ?? new Date(0));
    } else {
      await this.d.notices.once(job.containerId, 'stopped_expired', c.expires_at ?? new Date(0));
    }
  }

  private async releaseContainer(containerId: string): Promise<void> {
    const c = await this.d.containers.state(containerId);
    if (!c || c.status === 'deleted' || ACTIVE.includes(c.status as ContainerStatus)) return;
    const since = c.stopped_at ?? c.created_at;
    if (Date.now() - since.getTime() < this.d.settings.releaseAfterMs) return;
    await this.d.containers.destroy(containerId);
    await this.d.notices.once(containerId, 'released', since);
  }
}
