import type { Knex } from 'knex';
import type { Ledger } from './ledger.js';
import type { MeterRow, MetersRepository } from './meters-repository.js';
import type { OrdersRepository } from './orders-repository.js';
import type { BilledContainer, BillingContainers } from './ports.js';

const clamp = (d: Date, min: Date | null, max: Date) =>
  new Date(Math.min(max.getTime(), Math.max(min?.getTime() ?? 0, d.getTime())));

const MS_PER_HOUR = 3_600_000n;

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
    private readonly containers: Pick<BillingContainers, 'find' | 'runningHourly' | 'addCost'>,
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

  /** Settles every running meter at `now`; returns the users charged and the total. */
  async settleAll(now = new Date()): Promise<{ meters: number; chargedFen: number; userIds: number[] }> {
    await this.openMissing(now);
    const ids = await this.meters.openIds();
    const users = new Set<number>();
    let charged = 0;
    for (const id of ids) {
      const due = await this.ledger.transaction(async (trx) => {
        const owner = await this.meters.ownerOf(trx, id);
        if (owner === undefined) return 0;
        await this.ledger.lockBalance(trx, owner);
        const m = await this.meters.lockOpenById(trx, id);
        if (!m) return 0;
        const c = await this.containers.find(m.container_id, trx);
        if (!c) return 0;
        // A stop the lifecycle hooks missed (a crash between stop and pause) ends the meter at stopped_at.
        const keepRunning = c.status === 'running';
        const end = keepRunning ? now : clamp(c.stopped_at ?? c.deleted_at ?? now, m.running_since, now);
        const result = await this.settleMeter(trx, m, c, end, keepRunning);
        users.add(m.user_id);
        return result;
      });
      charged += due;
    }
    return { meters: ids.length, chargedFen: charged, userIds: [...users] };
  }

  /** Running hourly containers without an open meter (a hook that failed) are metered from their start. */
  private async openMissing(now: Date): Promise<void> {
    const running = await this.containers.runningHourly();
    if (running.length === 0) return;
    const ids = running.map((c) => c.id);
    const [open, metered] = await Promise.all([this.meters.withOpenMeter(ids), this.meters.metered(ids)]);
    const isOpen = new Set<string>(open);
    const meteredBefore = new Set<string>(metered);
    for (const c of running) {
      if (isOpen.has(c.id)) continue;
      await this.resume(c.id, !meteredBefore.has(c.id) && c.started_at ? c.started_at : now);
    }
  }

  private async settleMeter(
    trx: Knex.Transaction,
    m: MeterRow,
    c: BilledContainer,
    now: Date,
    keepRunning: boolean,
  ): Promise<number> {
    const since = m.running_since;
    const elapsed = since ? Math.max(0, now.getTime() - since.getTime()) : 0;
    const billedMs = Number(m.billed_ms) + elapsed;
    const due = chargeFor(billedMs, m.rate_fen_per_hour) - Number(m.charged_fen);
    await this.meters.settle(trx, m.id, {
      billed_ms: billedMs,
      charged_fen: Number(m.charged_fen) + Math.max(0, due),
      running_since: keepRunning && since ? (since > now ? since : now) : null,
      updated_at: now,
    });
    if (due > 0) {
      await this.ledger.post(trx, {
        userId: m.user_id,
        amountFen: -due,
        kind: 'expense',
        description: `容器 ${c.name} 按量计费（${(m.rate_fen_per_hour / 100).toFixed(2)}元/小时）`,
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
    return Math.max(0, due);
  }

  /** Total fen charged for a container's usage so far (all rates). */
  chargedFor(containerId: string): Promise<{ billedMs: number; chargedFen: number }> {
    return this.meters.totals(containerId);
  }
}
