import type { Knex } from 'knex';
import { SettlementRunModel } from './model.js';

/**
 * Owns settlement_runs: one row per settlement slot. Its primary key is what makes a slot settle
 * once across replicas (the settlement job claims the slot before it meters).
 */
export class SettlementRunsRepository {
  constructor(private readonly knex: Knex) {}

  /** True when this replica got the slot; false when another one has it already. */
  async claim(slot: number, replica: string, now: Date): Promise<boolean> {
    const claimed = await SettlementRunModel.query(this.knex)
      .insert({ slot, replica, ran_at: now })
      .onConflict('slot')
      .ignore()
      // A column the insert does not name: Objection hands back the model it was given when
      // nothing is returned (the slot was taken), so only a new row has it.
      .returning('meters');
    return claimed.meters !== undefined;
  }

  async record(slot: number, result: { meters: number; chargedFen: number }): Promise<void> {
    await SettlementRunModel.query(this.knex)
      .findById(slot)
      .patch({ meters: result.meters, charged_fen: result.chargedFen });
  }
}
