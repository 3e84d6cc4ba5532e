import type { Knex } from 'knex';

// Issue 19, the join protocol. platform_ca: the platform's own CA, made once per database by
// the first replica to start (id 1; its PKCS#8 key sealed with SECRET_KEY). node_join_tokens:
// single-use join tokens, stored as their SHA-256 (hex); used_at and node_id are set in the
// transaction that creates the joined node. nodes.tls: how the control plane dials the node:
// 'config' = the global AGENT_TLS_* settings (or plaintext), 'platform' = mutual TLS from the
// platform CA.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('platform_ca', (t) => {
    t.integer('id').primary();
    t.text('certificate_pem').notNullable();
    t.text('key_sealed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('alter table platform_ca add constraint platform_ca_single check (id = 1)');
  await knex.schema.createTable('node_join_tokens', (t) => {
    t.bigIncrements('id');
    t.string('token_hash', 64).notNullable().unique();
    t.string('name', 64).nullable();
    t.string('region', 64).notNullable();
    t.bigInteger('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.bigInteger('node_id').nullable().references('nodes.id').onDelete('SET NULL');
    t.index(['created_at']);
  });
  await knex.schema.alterTable('nodes', (t) => {
    t.text('tls').notNullable().defaultTo('config');
  });
  await knex.raw(`alter table nodes add constraint nodes_tls_mode check (tls in ('config', 'platform'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table nodes drop constraint if exists nodes_tls_mode');
  await knex.schema.alterTable('nodes', (t) => {
    t.dropColumn('tls');
  });
  await knex.schema.dropTableIfExists('node_join_tokens');
  await knex.schema.dropTableIfExists('platform_ca');
}
