import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    // While the node pulls the image of a purchase: how much of it is there, 0-100.
    t.smallint('pull_progress');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    t.dropColumn('pull_progress');
  });
}
