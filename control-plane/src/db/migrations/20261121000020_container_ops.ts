import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    // The GPU ids Docker's container currently has (it may differ from the allocation after a stop).
    t.jsonb('gpu_devices').notNullable().defaultTo('[]');
    // Started without GPUs (无卡模式), billed at the product's no-GPU price.
    t.boolean('no_gpu').notNullable().defaultTo(false);
    // Mounts saved by the user, applied at the next start (spec: 挂载点已更新，重启生效).
    t.jsonb('pending_mounts');
    t.bigInteger('no_gpu_price_fen').notNullable().defaultTo(0);
  });
  await knex.raw(
    "UPDATE containers SET gpu_devices = coalesce((SELECT jsonb_agg(g.gpu_index::text ORDER BY g.gpu_index) FROM gpu_allocations g WHERE g.container_id = containers.id), '[]'::jsonb)",
  );

  // A retried purchase with the same Idempotency-Key returns the first answer.
  await knex.schema.createTable('purchase_requests', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('idempotency_key', 128).notNullable();
    t.string('request_hash', 64).notNullable();
    t.integer('status').notNullable();
    t.jsonb('response').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'idempotency_key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('purchase_requests');
  await knex.schema.alterTable('containers', (t) => {
    t.dropColumn('gpu_devices');
    t.dropColumn('no_gpu');
    t.dropColumn('pending_mounts');
    t.dropColumn('no_gpu_price_fen');
  });
}
