import type { Knex } from 'knex';

/**
 * settlement_runs: one row per settlement slot. Its primary key is what makes a slot settle once
 * across replicas (the settlement job claims the slot before it meters).
 */
export class SettlementRuns {
  constructor(private readonly knex: Knex) {}

  /** True when this replica got the slot; false when another one has it already. */
  async claim(slot: number, replica: string, now: Date): Promise<boolean> {
    const claimed = await this.knex('settlement_runs')
      .insert({ slot, replica, ran_at: now })
      .onConflict('slot')
      .ignore()
      .returning('slot');
    return claimed.length > 0;
  }

  async record(slot: number, result: { meters: number; chargedFen: number }): Promise<void> {
    await this.knex('settlement_runs')
      .where({ slot })
      .update({ meters: result.meters, charged_fen: result.chargedFen });
  }
}
