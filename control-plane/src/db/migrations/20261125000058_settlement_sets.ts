import type { Knex } from 'knex';

// Settlement is set-based (billing/metering.ts settleAll): a pass settles the open meters of a
// batch of users in a few statements and books one ledger row per user, its containers' charges
// kept as the row's lines (the billing records list them one by one, as before).
export async function up(knex: Knex): Promise<void> {
  // A settlement's row of a user with several containers: its lines, in settling order (a row of
  // one container is that container's charge itself, as a posting would be).
  await knex.schema.createTable('ledger_lines', (t) => {
    t.bigInteger('entry_id').notNullable().references('ledger_entries.id').onDelete('CASCADE');
    t.integer('line').notNullable();
    t.string('container_id', 32).notNullable();
    t.bigInteger('order_id');
    // Signed fen, as the row's amount: a row's lines sum to it.
    t.bigInteger('amount_fen').notNullable();
    t.bigInteger('billed_seconds');
    t.string('description', 255).notNullable();
    t.primary(['entry_id', 'line']);
  });
  await knex.schema.alterTable('container_meters', (t) => {
    // A usage order's totals are its meters' sums (a per-order scan of every meter without it).
    t.index(['order_id']);
    // The meters of a batch of users.
    t.index(['user_id']);
    // No index on running_since: a settled meter's new version then stays on its page (below)
    // without a write to any index. Open meters are found by user or read in one scan.
    t.dropIndex(['running_since']);
  });
  // Each pass rewrites every open meter, the running totals of every metered container and usage
  // order and its users' balances (columns no index holds): room left on each page keeps those updates on the page
  // (heap-only tuples), without index writes.
  await knex.raw('ALTER TABLE container_meters SET (fillfactor = 50)');
  await knex.raw('ALTER TABLE container_orders SET (fillfactor = 50)');
  await knex.raw('ALTER TABLE containers SET (fillfactor = 50)');
  await knex.raw('ALTER TABLE billing_accounts SET (fillfactor = 50)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE billing_accounts RESET (fillfactor)');
  await knex.raw('ALTER TABLE containers RESET (fillfactor)');
  await knex.raw('ALTER TABLE container_orders RESET (fillfactor)');
  await knex.raw('ALTER TABLE container_meters RESET (fillfactor)');
  await knex.schema.alterTable('container_meters', (t) => {
    t.index(['running_since']);
    t.dropIndex(['user_id']);
    t.dropIndex(['order_id']);
  });
  await knex.schema.dropTable('ledger_lines');
}
