import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    // Jupyter as the node last reported it: running, starting, absent (the image has none),
    // image (the image's own command runs it); '' before the first report.
    t.string('jupyter', 16).notNullable().defaultTo('');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    t.dropColumn('jupyter');
  });
}
