import type { Knex } from 'knex';
import PgBoss from 'pg-boss';
import type { Metering } from './metering.js';
import type { Notices } from './notices.js';
import type { PaymentsService } from './payments.js';

const SETTLE = 'billing-settle';
const STOP = 'billing-container-stop';
const RELEASE = 'billing-container-release';
/** Hourly containers are released this long after they stopped (spec: 3 days), warned a day before. */
export const RELEASE_AFTER_MS = 3 * 24 * 3600_000;
const WARN_RELEASE_AFTER_MS = 2 * 24 * 3600_000;
const WARN_EXPIRY_BEFORE_MS = 24 * 3600_000;

/** What the jobs do to containers (the containers module, acting as the system). */
export interface ContainerActions {
  stop(containerId: string): Promise<void>;
  destroy(containerId: string): Promise<void>;
}

export interface BillingJobsDeps {
  knex: Knex;
  databaseUrl: string;
  metering: Metering;
  notices: Notices;
  payments: PaymentsService;
  containers: () => ContainerActions;
  intervalMs: number;
  /** Names the replica in settlement_runs. */
  replica: string;
  log: (message: string, err?: unknown) => void;
}

type StopJob = { containerId: string; reason: 'balance' | 'expired' };

/**
 * The money jobs on pg-boss (a PostgreSQL job queue shared by every replica). Each replica asks
 * for a settlement every interval; pg-boss keeps one job per time slot (sendThrottled), one
 * worker takes it (SKIP LOCKED), and settlement_runs' primary key refuses a slot twice. Stops and
 * releases are their own jobs, retried until the node answers.
 */
export class BillingJobs {
  private boss: PgBoss | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly d: BillingJobsDeps) {}

  async start(): Promise<void> {
    const boss = new PgBoss({ connectionString: this.d.databaseUrl, max: 3, schema: 'pgboss' });
    boss.on('error', (err) => this.d.log('billing jobs', err));
    await boss.start();
    await boss.createQueue(SETTLE, { name: SETTLE, retryLimit: 0, expireInSeconds: 600 });
    await boss.createQueue(STOP, { name: STOP, retryLimit: 20, retryDelay: 15, retryBackoff: true });
    await boss.createQueue(RELEASE, { name: RELEASE, retryLimit: 20, retryDelay: 60, retryBackoff: true });
    const polling = { pollingIntervalSeconds: Math.max(0.5, Math.min(2, this.d.intervalMs / 2000)) };
    await boss.work<{ slot: number }>(SETTLE, polling, async ([job]) => {
      if (job) await this.settle(job.data.slot);
    });
    await boss.work<StopJob>(STOP, polling, async ([job]) => {
      if (job) await this.stopContainer(job.data);
    });
    await boss.work<{ containerId: string }>(RELEASE, polling, async ([job]) => {
      if (job) await this.releaseContainer(job.data.containerId);
    });
    this.boss = boss;
    this.timer = setInterval(() => void this.requestSettlement(), this.d.intervalMs);
    void this.requestSettlement();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const boss = this.boss;
    this.boss = undefined;
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  private async requestSettlement(): Promise<void> {
    const boss = this.boss;
    if (!boss) return;
    const slot = Math.floor(Date.now() / this.d.intervalMs);
    try {
      await boss.sendThrottled(SETTLE, { slot }, {}, Math.max(1, Math.round(this.d.intervalMs / 1000)));
    } catch (err) {
      this.d.log('billing: could not queue a settlement', err);
    }
  }

  /** One settlement: meters, low balances, expiries and releases. Runs once per slot. */
  async settle(slot: number, now = new Date()): Promise<boolean> {
    const claimed = await this.d
      .knex('settlement_runs')
      .insert({ slot, replica: this.d.replica, ran_at: now })
      .onConflict('slot')
      .ignore()
      .returning('slot');
    if (claimed.length === 0) return false;
    const result = await this.d.metering.settleAll(now);
    await this.d
      .knex('settlement_runs')
      .where({ slot })
      .update({ meters: result.meters, charged_fen: result.chargedFen });
    await this.balances(result.userIds);
    await this.expiries(now);
    await this.releases(now);
    await this.d.payments.settleStale(now);
    return true;
  }

  /** Users whose metered balance fell: warned below their threshold, stopped at zero. */
  private async balances(userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    const warned = await this.d
      .knex('users')
      .whereIn('id', userIds)
      .whereNull('balance_alert_sent_at')
      .whereRaw('balance_fen < alert_threshold_fen')
      .where('balance_fen', '>', 0)
      .update({ balance_alert_sent_at: new Date() })
      .returning(['id', 'balance_fen', 'alert_threshold_fen']);
    for (const u of warned) await this.d.notices.lowBalance(u.id, u.balance_fen, u.alert_threshold_fen);
    const broke = await this.d
      .knex('containers')
      .join('users', 'users.id', 'containers.user_id')
      .whereIn('containers.user_id', userIds)
      .where('users.balance_fen', '<=', 0)
      .where('containers.billing_type', 'hourly')
      .whereIn('containers.status', ['running', 'starting'])
      .pluck('containers.id');
    for (const id of broke as string[]) await this.enqueueStop({ containerId: id, reason: 'balance' });
  }

  /** Prepaid containers stop at their end time; their users are warned a day before. */
  private async expiries(now: Date): Promise<void> {
    const due = await this.d
      .knex('containers')
      .whereNot('billing_type', 'hourly')
      .whereIn('status', ['running', 'starting'])
      .where('expires_at', '<=', now)
      .pluck('id');
    for (const id of due as string[]) await this.enqueueStop({ containerId: id, reason: 'expired' });
    const soon = await this.d
      .knex('containers')
      .whereNot('billing_type', 'hourly')
      .whereNot('status', 'deleted')
      .where('expires_at', '>', now)
      .where('expires_at', '<=', new Date(now.getTime() + WARN_EXPIRY_BEFORE_MS))
      .select('id', 'expires_at');
    for (const c of soon) await this.d.notices.once(c.id, 'expiry_warning', c.expires_at);
  }

  /** Hourly containers stopped for 3 days are released; a day before, their users are warned. */
  private async releases(now: Date): Promise<void> {
    const stopped = await this.d
      .knex('containers')
      .where('billing_type', 'hourly')
      .whereIn('status', ['stopped', 'error', 'failed', 'not_found'])
      .whereRaw('coalesce(stopped_at, created_at) <= ?', [new Date(now.getTime() - WARN_RELEASE_AFTER_MS)])
      .select('id', this.d.knex.raw('coalesce(stopped_at, created_at) as since'));
    for (const c of stopped as { id: string; since: Date }[]) {
      if (c.since.getTime() <= now.getTime() - RELEASE_AFTER_MS) {
        await this.boss?.send(RELEASE, { containerId: c.id }, { singletonKey: c.id, singletonSeconds: 300 });
      } else {
        await this.d.notices.once(c.id, 'release_warning', c.since);
      }
    }
  }

  private async enqueueStop(job: StopJob): Promise<void> {
    await this.boss?.send(STOP, job, { singletonKey: job.containerId, singletonSeconds: 60 });
  }

  private async stopContainer(job: StopJob): Promise<void> {
    const c = await this.d
      .knex('containers')
      .where({ id: job.containerId })
      .first('status', 'expires_at', 'started_at');
    if (!c || !['running', 'starting'].includes(c.status)) return;
    await this.d.containers().stop(job.containerId);
    if (job.reason === 'balance')
      await this.d.notices.once(job.containerId, 'stopped_balance', c.started_at ?? new Date(0));
    else await this.d.notices.once(job.containerId, 'stopped_expired', c.expires_at ?? new Date(0));
  }

  private async releaseContainer(containerId: string): Promise<void> {
    const c = await this.d
      .knex('containers')
      .where({ id: containerId })
      .first('status', 'stopped_at', 'created_at');
    if (!c || c.status === 'deleted' || c.status === 'running' || c.status === 'starting') return;
    const since = (c.stopped_at ?? c.created_at) as Date;
    if (Date.now() - since.getTime() < RELEASE_AFTER_MS) return;
    await this.d.containers().destroy(containerId);
    await this.d.notices.once(containerId, 'released', since);
  }
}
