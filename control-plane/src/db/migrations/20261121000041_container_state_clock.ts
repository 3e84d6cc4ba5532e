import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    // When the platform last set the status. What a node reported from before that moment is
    // stale (an action such as a port change or a destroy was under way) and is not applied.
    t.timestamp('status_changed_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    t.dropColumn('status_changed_at');
  });
}
