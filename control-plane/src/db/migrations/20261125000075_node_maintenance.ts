import type { Knex } from 'knex';

// Issue 19, maintenance and health. A node in maintenance (维护中) keeps its running containers
// but is not offered in the market: maintenance_since set (until and reason are for its owners
// and admins). Every replica's market cache hears of it (market_changed, migration 59).
// last_error / last_error_at: the node monitor's last failed call to the node, cleared when one
// succeeds again.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('nodes', (t) => {
    t.timestamp('maintenance_since', { useTz: true }).nullable();
    t.timestamp('maintenance_until', { useTz: true }).nullable();
    t.string('maintenance_reason', 200).nullable();
    t.text('last_error').nullable();
    t.timestamp('last_error_at', { useTz: true }).nullable();
  });
  await knex.raw(`
    create trigger nodes_maintenance_market_changed
      after update on nodes
      for each row
      when (old.maintenance_since is distinct from new.maintenance_since)
      execute function gpucloud_market_changed();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists nodes_maintenance_market_changed on nodes');
  await knex.schema.alterTable('nodes', (t) => {
    t.dropColumn('maintenance_since');
    t.dropColumn('maintenance_until');
    t.dropColumn('maintenance_reason');
    t.dropColumn('last_error');
    t.dropColumn('last_error_at');
  });
}
