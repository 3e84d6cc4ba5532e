import type { Knex } from 'knex';
import { raw } from 'objection';
import { ContainerMeterModel, type MeterRow } from './model.js';

export type { MeterRow } from './model.js';

const plain = (model: ContainerMeterModel): MeterRow => ({ ...model.toJSON() }) as MeterRow;

/**
 * Owns container_meters. Meters are locked FOR UPDATE in the settling transaction, after the
 * owner's account row (the ledger's lock order).
 */
export class MetersRepository {
  constructor(private readonly knex: Knex) {}

  /** The container's open (running) meters, locked until the transaction ends. */
  async lockOpen(trx: Knex.Transaction, containerId: string): Promise<MeterRow[]> {
    const rows = await ContainerMeterModel.query(trx)
      .modify('ofContainer', containerId)
      .modify('open')
      .forUpdate();
    return rows.map(plain);
  }

  /**
   * Opens the container's meter at this rate from `running_since` (a new row, or the one of this
   * rate counting again); a meter already open keeps its start.
   */
  async open(
    trx: Knex.Transaction,
    row: Pick<MeterRow, 'container_id' | 'user_id' | 'order_id' | 'rate_fen_per_hour'> & {
      running_since: Date;
    },
  ): Promise<void> {
    await ContainerMeterModel.query(trx)
      .insert(row)
      .onConflict(['container_id', 'rate_fen_per_hour'])
      .merge({
        running_since: raw('coalesce(container_meters.running_since, excluded.running_since)'),
      });
  }

  /** The users with an open meter, in id order (a settlement takes them in batches). */
  async openUsers(): Promise<number[]> {
    const { rows } = await this.knex.raw<{ rows: { user_id: number }[] }>(
      'select distinct user_id from container_meters where running_since is not null order by user_id',
    );
    return rows.map((r) => Number(r.user_id));
  }

  /** The containers with an open meter. */
  async openContainers(): Promise<string[]> {
    const { rows } = await this.knex.raw<{ rows: { container_id: string }[] }>(
      'select distinct container_id from container_meters where running_since is not null',
    );
    return rows.map((r) => r.container_id);
  }

  /** Of these containers, those metered at some time (a meter, open or not). */
  async metered(containerIds: string[]): Promise<string[]> {
    const rows = await ContainerMeterModel.query(this.knex)
      .whereIn('container_id', containerIds)
      .distinct('container_id');
    return rows.map((r) => r.container_id);
  }

  /** A settlement's totals; running_since null closes the meter. */
  async settle(
    trx: Knex.Transaction,
    id: number,
    values: Pick<MeterRow, 'billed_ms' | 'charged_fen' | 'running_since'> & { updated_at: Date },
  ): Promise<void> {
    await ContainerMeterModel.query(trx).where({ id }).patch(values);
  }

  /** The container's metered time and charge so far (all rates). */
  async totals(containerId: string): Promise<{ billedMs: number; chargedFen: number }> {
    const row = (await ContainerMeterModel.query(this.knex)
      .modify('ofContainer', containerId)
      .select(
        raw(
          'coalesce(sum(billed_ms),0)::bigint as billed_ms, coalesce(sum(charged_fen),0)::bigint as charged_fen',
        ),
      )
      .first()) as unknown as { billed_ms: number | null; charged_fen: number | null } | undefined;
    return { billedMs: Number(row?.billed_ms ?? 0), chargedFen: Number(row?.charged_fen ?? 0) };
  }
}
