import type { Knex } from 'knex';
import type { Ledger } from './ledger.js';
import type { OrdersRepository } from './orders-repository.js';

interface MeterRow {
  id: number;
  container_id: string;
  user_id: number;
  order_id: number | null;
  rate_fen_per_hour: number;
  billed_ms: number;
  charged_fen: number;
  running_since: Date | null;
}

/** What metering reads of a container (the containers module owns the table). */
interface MeteredContainer {
  id: string;
  user_id: number;
  name: string;
  status: string;
  billing_type: string;
  price_fen: number;
  gpu_count: number;
  no_gpu: boolean;
  no_gpu_price_fen: number;
  stopped_at: Date | null;
  deleted_at: Date | null;
}

const clamp = (d: Date, min: Date | null, max: Date) =>
  new Date(Math.min(max.getTime(), Math.max(min?.getTime() ?? 0, d.getTime())));

const MS_PER_HOUR = 3_600_000n;

/** The hourly rate of a running container: its GPUs, or the no-GPU price in 无卡模式. */
export function hourlyRateFen(
  c: Pick<MeteredContainer, 'price_fen' | 'gpu_count' | 'no_gpu' | 'no_gpu_price_fen'>,
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
    private readonly orders: OrdersRepository,
  ) {}

  private get knex() {
    return this.ledger.knex;
  }

  /** The container runs (from `at`): its meter at the current rate is opened. */
  async resume(containerId: string, at = new Date()): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const c = await trx<MeteredContainer>('containers').where({ id: containerId }).first();
      if (c?.billing_type !== 'hourly' || c.status !== 'running') return;
      await this.ledger.lockBalance(trx, c.user_id);
      const rate = hourlyRateFen(c);
      const open = await trx<MeterRow>('container_meters')
        .where({ container_id: containerId })
        .whereNotNull('running_since')
        .forUpdate();
      for (const m of open) if (m.rate_fen_per_hour !== rate) await this.settleMeter(trx, m, c, at, false);
      const order = await this.orders.usageOrder(trx, containerId);
      await trx('container_meters')
        .insert({
          container_id: containerId,
          user_id: c.user_id,
          order_id: order?.id ?? null,
          rate_fen_per_hour: rate,
          running_since: at,
        })
        .onConflict(['container_id', 'rate_fen_per_hour'])
        .merge({
          running_since: trx.raw('coalesce(container_meters.running_since, excluded.running_since)'),
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
    await this.knex.transaction(async (trx) => {
      const c = await trx<MeteredContainer>('containers').where({ id: containerId }).first();
      if (c) await this.ledger.lockBalance(trx, c.user_id);
      const open = await trx<MeterRow>('container_meters')
        .where({ container_id: containerId })
        .whereNotNull('running_since')
        .forUpdate();
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
    const ids = await this.knex('container_meters').whereNotNull('running_since').pluck('id');
    const users = new Set<number>();
    let charged = 0;
    for (const id of ids as number[]) {
      const due = await this.knex.transaction(async (trx) => {
        const owner = await trx('container_meters').where({ id }).first('user_id');
        if (!owner) return 0;
        await this.ledger.lockBalance(trx, owner.user_id);
        const m = await trx<MeterRow>('container_meters')
          .where({ id })
          .whereNotNull('running_since')
          .forUpdate()
          .first();
        if (!m) return 0;
        const c = await trx<MeteredContainer>('containers').where({ id: m.container_id }).first();
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
    const missing = await this.knex('containers')
      .where({ billing_type: 'hourly', status: 'running' })
      .whereNotExists(
        this.knex('container_meters')
          .whereRaw('container_meters.container_id = containers.id')
          .whereNotNull('running_since')
          .select(this.knex.raw('1')),
      )
      .select(
        'id',
        'started_at',
        this.knex.raw(
          'exists (select 1 from container_meters m where m.container_id = containers.id) as metered_before',
        ),
      );
    for (const c of missing as { id: string; started_at: Date | null; metered_before: boolean }[]) {
      await this.resume(c.id, !c.metered_before && c.started_at ? c.started_at : now);
    }
  }

  private async settleMeter(
    trx: Knex.Transaction,
    m: MeterRow,
    c: MeteredContainer,
    now: Date,
    keepRunning: boolean,
  ): Promise<number> {
    const since = m.running_since;
    const elapsed = since ? Math.max(0, now.getTime() - since.getTime()) : 0;
    const billedMs = Number(m.billed_ms) + elapsed;
    const due = chargeFor(billedMs, m.rate_fen_per_hour) - Number(m.charged_fen);
    await trx('container_meters')
      .where({ id: m.id })
      .update({
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
      await trx('containers').where({ id: m.container_id }).increment('total_cost_fen', due);
    }
    if (m.order_id !== null) {
      // The usage order shows the meters' totals (never a sum of rounded pieces).
      await trx('container_orders')
        .where({ id: m.order_id })
        .update({
          amount_fen: trx.raw(
            '(select coalesce(sum(charged_fen), 0) from container_meters where order_id = ?)',
            [m.order_id],
          ),
          billed_seconds: trx.raw(
            '(select coalesce(sum(billed_ms), 0) / 1000 from container_meters where order_id = ?)',
            [m.order_id],
          ),
        });
    }
    return Math.max(0, due);
  }

  /** Total fen charged for a container's usage so far (all rates). */
  async chargedFor(containerId: string): Promise<{ billedMs: number; chargedFen: number }> {
    const [row] = await this.knex('container_meters')
      .where({ container_id: containerId })
      .select(
        this.knex.raw(
          'coalesce(sum(billed_ms),0)::bigint as billed_ms, coalesce(sum(charged_fen),0)::bigint as charged_fen',
        ),
      );
    return { billedMs: Number(row?.billed_ms ?? 0), chargedFen: Number(row?.charged_fen ?? 0) };
  }
}
