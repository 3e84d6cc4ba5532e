import type { Knex } from 'knex';
import type { Ledger } from './ledger.js';
import type { MeterRow, MetersRepository } from './meters-repository.js';
import type { OrdersRepository } from './orders-repository.js';
import type { BilledContainer, BillingContainers } from './ports.js';
import type { SettlementRepository } from './settlement-repository.js';

const MS_PER_HOUR = 3_600_000n;

/**
 * Users per settlement transaction: a batch locks their accounts and meters together (about
 * 0.4 s per 10,000 users on 2 cores, which a purchase of one of them may wait). Each batch's
 * statement hashes whole tables, so much smaller batches cost more in all: 5,000 took 4.7 s for
 * 100k containers where 10,000 took 4.1 s.
 */
const SETTLEMENT_BATCH_USERS = 10_000;

/** How a metered charge reads in the ledger and the billing records. */
const usageDescription = (containerName: string, rateFenPerHour: number) =>
  `容器 ${containerName} 按量计费（${(rateFenPerHour / 100).toFixed(2)}元/小时）`;

/**
 * A meter settled at `now`: its running time added, charged chargeFor(total) − charged so far
 * (never a sum of rounded pieces), still counting from `now` or closed. A settlement that took the
 * meter's lock first may have billed past `now` already (its own clock read later): the meter then
 * ends where that one billed to, with nothing added and nothing taken back (updated_at says where).
 */
function settlementOf(m: MeterRow, now: Date, keepRunning: boolean) {
  const since = m.running_since;
  const end = since && since > now ? since : now;
  const elapsed = since ? end.getTime() - since.getTime() : 0;
  const billedMs = Number(m.billed_ms) + elapsed;
  const due = Math.max(0, chargeFor(billedMs, m.rate_fen_per_hour) - Number(m.charged_fen));
  return {
    due,
    elapsed,
    values: {
      billed_ms: billedMs,
      charged_fen: Number(m.charged_fen) + due,
      running_since: keepRunning && since ? end : null,
      updated_at: end,
    },
  };
}

/** The hourly rate of a running container: its GPUs, or the no-GPU price in 无卡模式. */
export function hourlyRateFen(
  c: Pick<BilledContainer, 'price_fen' | 'gpu_count' | 'no_gpu' | 'no_gpu_price_fen'>,
) {
  return c.no_gpu || c.gpu_count === 0 ? c.no_gpu_price_fen : c.price_fen * c.gpu_count;
}

/** Whole fen owed for `billedMs` at `rate` fen per hour, rounded half up (BigInt: no overflow). */
export function chargeFor(billedMs: number, rateFenPerHour: number): number {
  return Number((BigInt(billedMs) * BigInt(rateFenPerHour) + MS_PER_HOUR / 2n) / MS_PER_HOUR);
}

/**
 * Per-second metering of hourly containers. A meter counts the running milliseconds of a
 * container at one rate; a settlement adds the time since the last one and charges
 * chargeFor(total) − charged (never the sum of rounded pieces, so nothing drifts). Meters are
 * rows locked FOR UPDATE: a stop and a settlement of the same container, or two replicas,
 * serialise, and a restart loses nothing (running_since is in the database).
 */
export class Metering {
  constructor(
    private readonly ledger: Ledger,
    private readonly meters: MetersRepository,
    private readonly orders: OrdersRepository,
    private readonly containers: Pick<
      BillingContainers,
      'find' | 'runningHourly' | 'runningHourlyCount' | 'addCost' | 'settlementSql'
    >,
    private readonly settlements: SettlementRepository,
  ) {}

  /** The container runs (from `at`): its meter at the current rate is opened. */
  async resume(containerId: string, at = new Date()): Promise<void> {
    await this.ledger.transaction(async (trx) => {
      const c = await this.containers.find(containerId, trx);
      if (c?.billing_type !== 'hourly' || c.status !== 'running') return;
      await this.ledger.lockBalance(trx, c.user_id);
      const rate = hourlyRateFen(c);
      const open = await this.meters.lockOpen(trx, containerId);
      for (const m of open) if (m.rate_fen_per_hour !== rate) await this.settleMeter(trx, m, c, at, false);
      const order = await this.orders.usageOrder(trx, containerId);
      await this.meters.open(trx, {
        container_id: containerId,
        user_id: c.user_id,
        order_id: order?.id ?? null,
        rate_fen_per_hour: rate,
        running_since: at,
      });
      if (order && order.status !== 'completed')
        await this.orders.update(order.id, { status: 'running' }, trx);
    });
  }

  /** The container stopped (at `at`): its open meter is settled and closed. */
  async pause(
    containerId: string,
    at = new Date(),
    finalStatus: 'stopped' | 'completed' = 'stopped',
  ): Promise<void> {
    await this.ledger.transaction(async (trx) => {
      const c = await this.containers.find(containerId, trx);
      if (c) await this.ledger.lockBalance(trx, c.user_id);
      const open = await this.meters.lockOpen(trx, containerId);
      for (const m of open) if (c) await this.settleMeter(trx, m, c, at, false);
      const order = await this.orders.usageOrder(trx, containerId);
      if (order && order.status !== 'completed' && order.status !== 'cancelled') {
        await this.orders.update(
          order.id,
          finalStatus === 'completed' ? { status: 'completed', end_time: at } : { status: 'stopped' },
          trx,
        );
      }
    });
  }

  /**
   * Settles every running meter at `now`; returns the users charged and the total. Set-based:
   * the users with an open meter are taken in batches, each batch one transaction of three
   * statements whatever its number of meters (accounts locked first, in user order, then the
   * meters: the ledger's lock order), one ledger row per user with its containers' charges as
   * its lines (a container found running without a meter adds its user a second one). The
   * arithmetic is settlementOf's, meter by meter, the same as a stop's, written in SQL
   * (SettlementRepository.settleBatch).
   */
  async settleAll(now = new Date()): Promise<{ meters: number; chargedFen: number; userIds: number[] }> {
    const userIds = await this.meters.openUsers();
    const users = new Set<number>();
    let charged = 0;
    const settle = async (ids: number[]) => {
      let meters = 0;
      let runningHourly = 0;
      for (let i = 0; i < ids.length; i += SETTLEMENT_BATCH_USERS) {
        const batch = await this.settleUsers(ids.slice(i, i + SETTLEMENT_BATCH_USERS), now);
        meters += batch.meters;
        charged += batch.chargedFen;
        // Batches hold distinct users, so distinct containers.
        runningHourly += batch.runningHourly;
        for (const id of batch.userIds) users.add(id);
      }
      return { meters, runningHourly };
    };
    const first = await settle(userIds);
    let meters = first.meters;
    // Running hourly containers the pass did not meter (a hook that failed) get their meter and
    // are settled too: their users' other meters, settled at `now` already, charge nothing more.
    const opened = await this.openMissing(now, first.runningHourly);
    if (opened.containers > 0) {
      await settle(opened.userIds);
      meters += opened.containers;
    }
    return { meters, chargedFen: charged, userIds: [...users] };
  }

  /**
   * One batch of settleAll: these users' accounts locked (in user order), then their open meters
   * settled in one statement (SettlementRepository.settleBatch), then their new balances.
   */
  private settleUsers(
    userIds: number[],
    now: Date,
  ): Promise<{ meters: number; chargedFen: number; userIds: number[]; runningHourly: number }> {
    return this.ledger.transaction(async (trx) => {
      await this.ledger.lockBalances(trx, userIds);
      const batch = await this.settlements.settleBatch(trx, userIds, now, this.containers.settlementSql);
      await this.ledger.setSettledBalances(trx, batch.balances);
      return batch;
    });
  }

  /**
   * Running hourly containers without an open meter (a hook that failed) are metered from their
   * start (from now when metered before). Looked for only when fewer running hourly containers
   * were metered than run. Answers the containers opened and their users.
   */
  private async openMissing(
    now: Date,
    runningMetered: number,
  ): Promise<{ containers: number; userIds: number[] }> {
    if ((await this.containers.runningHourlyCount()) <= runningMetered) return { containers: 0, userIds: [] };
    const [running, open] = await Promise.all([
      this.containers.runningHourly(),
      this.meters.openContainers(),
    ]);
    const isOpen = new Set<string>(open);
    const missing = running.filter((c) => !isOpen.has(c.id));
    if (missing.length === 0) return { containers: 0, userIds: [] };
    const meteredBefore = new Set<string>(await this.meters.metered(missing.map((c) => c.id)));
    for (const c of missing) {
      await this.resume(c.id, !meteredBefore.has(c.id) && c.started_at ? c.started_at : now);
    }
    return {
      containers: missing.length,
      userIds: [...new Set(missing.map((c) => c.user_id))].sort((a, b) => a - b),
    };
  }

  private async settleMeter(
    trx: Knex.Transaction,
    m: MeterRow,
    c: BilledContainer,
    now: Date,
    keepRunning: boolean,
  ): Promise<number> {
    const { values, due, elapsed } = settlementOf(m, now, keepRunning);
    await this.meters.settle(trx, m.id, values);
    if (due > 0) {
      await this.ledger.post(trx, {
        userId: m.user_id,
        amountFen: -due,
        kind: 'expense',
        description: usageDescription(c.name, m.rate_fen_per_hour),
        paymentMethod: 'balance',
        containerId: m.container_id,
        orderId: m.order_id ?? undefined,
        billedSeconds: Math.round(elapsed / 1000),
      });
      await this.containers.addCost(trx, m.container_id, due);
    }
    if (m.order_id !== null) {
      // The usage order shows the meters' totals (never a sum of rounded pieces).
      await this.orders.recordUsage(trx, m.order_id);
    }
    return due;
  }

  /** Total fen charged for a container's usage so far (all rates). */
  chargedFor(containerId: string): Promise<{ billedMs: number; chargedFen: number }> {
    return this.meters.totals(containerId);
  }
}
