import type { Knex } from 'knex';
import type { Ledger, LedgerLine } from './ledger.js';
import type { MeterRow, MetersRepository } from './meters-repository.js';
import type { OrdersRepository } from './orders-repository.js';
import type { BilledContainer, BillingContainers } from './ports.js';

const clamp = (d: Date, min: Date | null, max: Date) =>
  new Date(Math.min(max.getTime(), Math.max(min?.getTime() ?? 0, d.getTime())));

const MS_PER_HOUR = 3_600_000n;

/** Users per settlement transaction: a batch locks their accounts and meters together. */
const SETTLEMENT_BATCH_USERS = 5_000;

/** How a metered charge reads in the ledger and the billing records. */
const usageDescription = (containerName: string, rateFenPerHour: number) =>
  `容器 ${containerName} 按量计费（${(rateFenPerHour / 100).toFixed(2)}元/小时）`;

/**
 * A meter settled at `now`: its running time added, charged chargeFor(total) − charged so far
 * (never a sum of rounded pieces), still counting from `now` or closed.
 */
function settlementOf(m: MeterRow, now: Date, keepRunning: boolean) {
  const since = m.running_since;
  const elapsed = since ? Math.max(0, now.getTime() - since.getTime()) : 0;
  const billedMs = Number(m.billed_ms) + elapsed;
  const due = Math.max(0, chargeFor(billedMs, m.rate_fen_per_hour) - Number(m.charged_fen));
  return {
    due,
    elapsed,
    values: {
      billed_ms: billedMs,
      charged_fen: Number(m.charged_fen) + due,
      running_since: keepRunning && since ? (since > now ? since : now) : null,
      updated_at: now,
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
      'find' | 'runningHourly' | 'runningHourlyCount' | 'addCost' | 'settling' | 'addCosts'
    >,
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
   * the users with an open meter are taken in batches, each batch one transaction of a few
   * statements whatever its number of meters (accounts locked first, in user order, then the
   * meters: the ledger's lock order), one ledger row per user with its containers' charges as
   * its lines (a container found running without a meter adds its user a second one). The
   * arithmetic is settlementOf's, meter by meter, the same as a stop's.
   */
  async settleAll(now = new Date()): Promise<{ meters: number; chargedFen: number; userIds: number[] }> {
    const userIds = await this.meters.openUsers();
    const users = new Set<number>();
    const runningMetered = new Set<string>();
    let charged = 0;
    const settle = async (ids: number[]) => {
      let meters = 0;
      for (let i = 0; i < ids.length; i += SETTLEMENT_BATCH_USERS) {
        const batch = await this.settleUsers(ids.slice(i, i + SETTLEMENT_BATCH_USERS), now, runningMetered);
        meters += batch.meters;
        charged += batch.chargedFen;
        for (const id of batch.userIds) users.add(id);
      }
      return meters;
    };
    let meters = await settle(userIds);
    // Running hourly containers the pass did not meter (a hook that failed) get their meter and
    // are settled too: their users' other meters, settled at `now` already, charge nothing more.
    const opened = await this.openMissing(now, runningMetered.size);
    if (opened.containers > 0) {
      await settle(opened.userIds);
      meters += opened.containers;
    }
    return { meters, chargedFen: charged, userIds: [...users] };
  }

  /** One batch of settleAll: these users' open meters, in one transaction. */
  private settleUsers(
    userIds: number[],
    now: Date,
    runningMetered: Set<string>,
  ): Promise<{ meters: number; chargedFen: number; userIds: number[] }> {
    return this.ledger.transaction(async (trx) => {
      const balances = await this.ledger.lockBalances(trx, userIds);
      const open = await this.meters.lockOpenOfUsers(trx, userIds);
      if (open.length === 0) return { meters: 0, chargedFen: 0, userIds: [] };
      const containers = new Map(
        (await this.containers.settling(trx, [...new Set(open.map((m) => m.container_id))])).map((c) => [
          c.id,
          c,
        ]),
      );
      const settled: Parameters<MetersRepository['settleMany']>[1] = [];
      const lines = new Map<number, LedgerLine[]>();
      const costs = new Map<string, number>();
      const orders = new Set<number>();
      const users = new Set<number>();
      let charged = 0;
      for (const m of open) {
        const c = containers.get(m.container_id);
        if (!c) continue;
        // A stop the lifecycle hooks missed (a crash between stop and pause) ends the meter at stopped_at.
        const keepRunning = c.status === 'running';
        if (keepRunning && c.billing_type === 'hourly') runningMetered.add(c.id);
        const end = keepRunning ? now : clamp(c.stopped_at ?? c.deleted_at ?? now, m.running_since, now);
        const s = settlementOf(m, end, keepRunning);
        settled.push({ id: m.id, ...s.values });
        users.add(m.user_id);
        if (s.due > 0) {
          const userLines = lines.get(m.user_id) ?? [];
          userLines.push({
            container_id: m.container_id,
            order_id: m.order_id,
            amount_fen: -s.due,
            billed_seconds: Math.round(s.elapsed / 1000),
            description: usageDescription(c.name, m.rate_fen_per_hour),
          });
          lines.set(m.user_id, userLines);
          costs.set(m.container_id, (costs.get(m.container_id) ?? 0) + s.due);
          charged += s.due;
        }
        if (m.order_id !== null) orders.add(m.order_id);
      }
      await this.meters.settleMany(trx, settled);
      await this.ledger.postSettlement(
        trx,
        balances,
        [...lines].map(([userId, l]) => ({ userId, lines: l })),
      );
      await this.containers.addCosts(
        trx,
        [...costs].map(([id, fen]) => ({ id, fen })),
      );
      // The usage orders show the meters' totals (never a sum of rounded pieces).
      await this.orders.recordUsageMany(trx, [...orders]);
      return { meters: open.length, chargedFen: charged, userIds: [...users] };
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
