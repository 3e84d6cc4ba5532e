import type { Knex } from 'knex';

// The balance, its alert threshold and the time of the last low-balance warning move from users
// into billing_accounts, a table of the billing module's own (one owner per table): the ledger
// locks and writes this row, users keeps the identity. Every user gets a row; a user created
// later gets one with the first posting (or reads as zero until then).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('billing_accounts', (t) => {
    t.bigInteger('user_id').primary().references('users.id').onDelete('CASCADE');
    t.bigInteger('balance_fen').notNullable().defaultTo(0);
    t.bigInteger('alert_threshold_fen').notNullable().defaultTo(10_000);
    // Set when the low-balance warning went out; cleared when the balance is back above the threshold.
    t.timestamp('balance_alert_sent_at', { useTz: true });
  });
  await knex.raw(`
    INSERT INTO billing_accounts (user_id, balance_fen, alert_threshold_fen, balance_alert_sent_at)
    SELECT id, balance_fen, alert_threshold_fen, balance_alert_sent_at FROM users`);
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('balance_fen');
    t.dropColumn('alert_threshold_fen');
    t.dropColumn('balance_alert_sent_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.bigInteger('balance_fen').notNullable().defaultTo(0);
    t.bigInteger('alert_threshold_fen').notNullable().defaultTo(10_000);
    t.timestamp('balance_alert_sent_at', { useTz: true });
  });
  await knex.raw(`
    UPDATE users SET balance_fen = a.balance_fen, alert_threshold_fen = a.alert_threshold_fen,
      balance_alert_sent_at = a.balance_alert_sent_at
    FROM billing_accounts a WHERE a.user_id = users.id`);
  await knex.schema.dropTable('billing_accounts');
}
