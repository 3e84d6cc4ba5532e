import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // One row per node and sample bucket: replicas that both follow a node write the same bucket once.
  await knex.schema.createTable('gpu_samples', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.timestamp('bucket', { useTz: true }).notNullable();
    t.jsonb('gpus').notNullable();
    t.unique(['node_id', 'bucket']);
  });
  await knex.schema.alterTable('nodes', (t) => {
    // Labelled containers the agent reports that the platform does not know (never deleted silently).
    t.jsonb('unknown_containers').notNullable().defaultTo('[]');
    t.timestamp('reconciled_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('nodes', (t) => {
    t.dropColumn('unknown_containers');
    t.dropColumn('reconciled_at');
  });
  await knex.schema.dropTableIfExists('gpu_samples');
}
