import type { Knex } from 'knex';

// A settlement's batch is one statement (billing/settlement-repository.ts) that books the ledger
// rows and, in the same statement, their lines. The lines' foreign key to ledger_entries cost a
// lookup and a row lock on the just-written ledger row for every line (a tenth of the pass);
// lines are only ever written by that statement, with the row it has just inserted, and ledger
// rows are never deleted by the application, so the key is dropped. The existing lines stay.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ledger_lines', (t) => {
    t.dropForeign(['entry_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  // Lines whose row is gone (none, unless rows were deleted by hand) would refuse the key.
  await knex.raw(
    'delete from ledger_lines l where not exists (select 1 from ledger_entries e where e.id = l.entry_id)',
  );
  await knex.schema.alterTable('ledger_lines', (t) => {
    t.foreign('entry_id').references('ledger_entries.id').onDelete('CASCADE');
  });
}
