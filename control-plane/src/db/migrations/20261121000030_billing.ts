import type { Knex } from 'knex';

/**
 * Money: the ledger (every balance change), payments (WeChat Pay), container orders, metering,
 * invoices, coupons and the settlement runs of the job queue.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.bigInteger('alert_threshold_fen').notNullable().defaultTo(10_000);
    // Set when the low-balance warning went out; cleared when the balance is back above the threshold.
    t.timestamp('balance_alert_sent_at', { useTz: true });
  });

  await knex.schema.createTable('payments', (t) => {
    t.bigIncrements('id');
    t.string('out_trade_no', 32).notNullable().unique();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('amount_fen').notNullable();
    t.string('provider', 16).notNullable();
    t.string('status', 16).notNullable().defaultTo('pending');
    t.string('trade_state', 32).notNullable().defaultTo('NOTPAY');
    t.text('code_url');
    t.string('transaction_id', 64);
    t.string('description', 128).notNullable();
    // A payment made for a pending order pays that order once the money is in.
    t.bigInteger('order_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('closed_at', { useTz: true });
    t.index(['user_id', 'created_at']);
    t.index(['status', 'created_at']);
  });

  await knex.schema.createTable('container_orders', (t) => {
    t.bigIncrements('id');
    t.string('order_no', 32).notNullable().unique();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // No foreign key: an order outlives its container (and a failed purchase's row).
    t.string('container_id', 32).notNullable();
    t.string('order_type', 16).notNullable();
    t.string('billing_type', 16).notNullable();
    t.string('product_name', 128).notNullable();
    t.string('server_name', 128).notNullable().defaultTo('');
    t.string('gpu_type', 128).notNullable().defaultTo('');
    t.integer('gpu_count').notNullable().defaultTo(0);
    t.string('region', 64).notNullable().defaultTo('');
    t.bigInteger('unit_price_fen').notNullable();
    t.integer('duration').notNullable().defaultTo(1);
    t.bigInteger('amount_fen').notNullable().defaultTo(0);
    t.bigInteger('discount_fen').notNullable().defaultTo(0);
    t.bigInteger('billed_seconds').notNullable().defaultTo(0);
    t.string('status', 16).notNullable();
    t.timestamp('start_time', { useTz: true });
    t.timestamp('end_time', { useTz: true });
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'created_at']);
    t.index(['container_id']);
  });

  await knex.schema.createTable('coupons', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 64).notNullable();
    t.bigInteger('amount_fen').notNullable();
    t.bigInteger('min_amount_fen').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.string('status', 16).notNullable().defaultTo('unused');
    // 'use' marks the coupon for the next purchase or top-up that reaches min_amount.
    t.timestamp('selected_at', { useTz: true });
    t.timestamp('used_at', { useTz: true });
    t.string('used_for', 64);
    t.bigInteger('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'status']);
  });

  // The one ledger: every change of users.balance_fen is a row here, written in the same transaction.
  await knex.schema.createTable('ledger_entries', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('amount_fen').notNullable();
    t.bigInteger('balance_after_fen').notNullable();
    t.string('kind', 16).notNullable();
    t.string('description', 255).notNullable();
    t.string('payment_method', 16).notNullable();
    t.string('container_id', 32);
    t.bigInteger('order_id');
    t.bigInteger('payment_id');
    t.bigInteger('coupon_id');
    t.bigInteger('admin_id');
    t.bigInteger('billed_seconds');
    // Makes one-time credits (trial credit, a payment's recharge) impossible to book twice.
    t.string('unique_key', 96).unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'created_at']);
    t.index(['order_id']);
  });

  // Metering of hourly containers: one row per container and rate (GPU or no-GPU price).
  await knex.schema.createTable('container_meters', (t) => {
    t.bigIncrements('id');
    t.string('container_id', 32).notNullable();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('order_id');
    t.bigInteger('rate_fen_per_hour').notNullable();
    t.bigInteger('billed_ms').notNullable().defaultTo(0);
    t.bigInteger('charged_fen').notNullable().defaultTo(0);
    t.timestamp('running_since', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['container_id', 'rate_fen_per_hour']);
    t.index(['running_since']);
  });

  await knex.schema.createTable('invoices', (t) => {
    t.bigIncrements('id');
    t.string('invoice_no', 32).notNullable().unique();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('order_id').notNullable().references('container_orders.id');
    t.string('title', 128).notNullable();
    t.string('tax_no', 32).notNullable();
    t.bigInteger('amount_fen').notNullable();
    t.string('status', 16).notNullable().defaultTo('pending');
    t.bigInteger('issued_by');
    t.timestamp('issued_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'created_at']);
  });

  // One notice per container, kind and moment (the day-before release warning, the expiry stop).
  await knex.schema.createTable('container_notices', (t) => {
    t.string('container_id', 32).notNullable();
    t.string('kind', 32).notNullable();
    t.timestamp('ref_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['container_id', 'kind', 'ref_at']);
  });

  // One row per settlement slot: the proof that a slot ran once, whichever replica ran it.
  await knex.schema.createTable('settlement_runs', (t) => {
    t.bigInteger('slot').primary();
    t.string('replica', 64).notNullable();
    t.integer('meters').notNullable().defaultTo(0);
    t.bigInteger('charged_fen').notNullable().defaultTo(0);
    t.timestamp('ran_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // Users existing before the ledger: their balance becomes the first ledger row.
  await knex.raw(`
    INSERT INTO ledger_entries (user_id, amount_fen, balance_after_fen, kind, description, payment_method, unique_key)
    SELECT id, balance_fen, balance_fen, 'adjustment', '期初余额', 'system', 'opening:' || id
    FROM users WHERE balance_fen <> 0`);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'settlement_runs',
    'container_notices',
    'invoices',
    'container_meters',
    'ledger_entries',
    'coupons',
    'container_orders',
    'payments',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('alert_threshold_fen');
    t.dropColumn('balance_alert_sent_at');
  });
}
