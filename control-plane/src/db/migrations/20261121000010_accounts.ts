import type { Knex } from 'knex';

/** Accounts: verification codes, the sandbox outbox, rate limits, API keys, WeChat sandbox codes. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('last_login_at', { useTz: true });
    t.timestamp('disabled_at', { useTz: true });
  });

  // Codes are stored as SHA-256 hashes; a code is single-use (consumed_at) and expires.
  await knex.schema.createTable('verification_codes', (t) => {
    t.bigIncrements('id');
    t.string('purpose', 32).notNullable();
    t.string('channel', 8).notNullable();
    t.string('target', 255).notNullable();
    t.bigInteger('user_id').references('users.id').onDelete('CASCADE');
    t.string('code_hash', 64).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('consumed_at', { useTz: true });
    t.index(['purpose', 'target', 'created_at']);
    t.index(['purpose', 'user_id', 'created_at']);
  });

  // What the sandbox providers "sent": read by admins in the console (no credentials configured).
  await knex.schema.createTable('outbox_messages', (t) => {
    t.bigIncrements('id');
    t.string('channel', 8).notNullable();
    t.string('to', 255).notNullable();
    t.string('subject', 255).notNullable().defaultTo('');
    t.text('body').notNullable();
    t.string('code', 16);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
  });

  // Fixed-window counters shared by every replica (INSERT … ON CONFLICT increments atomically).
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.string('key', 255).notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['key', 'window_start']);
    t.index(['expires_at']);
  });

  // A key is stored twice: a SHA-256 hash to authenticate it, and an AES-GCM copy (SECRET_KEY) to
  // reveal it. Neither is usable without the key material outside the database.
  await knex.schema.createTable('api_keys', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 64).notNullable();
    t.string('key_hash', 64).notNullable().unique();
    t.text('key_encrypted').notNullable();
    t.string('key_masked', 32).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.index(['user_id']);
  });

  // Codes the sandbox WeChat identity page hands out; each is accepted once, like WeChat's.
  await knex.schema.createTable('wechat_sandbox_codes', (t) => {
    t.string('code_hash', 64).primary();
    t.string('openid', 128).notNullable();
    t.string('nickname', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'wechat_sandbox_codes',
    'api_keys',
    'rate_limit_counters',
    'outbox_messages',
    'verification_codes',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('last_login_at');
    t.dropColumn('disabled_at');
  });
}
