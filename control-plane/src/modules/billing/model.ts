import { Model, type Modifiers, type QueryBuilder, type RelationMappingsThunk, raw } from 'objection';
import { sqlArray } from '../../db/sql-arrays.js';

// Billing's tables, one model each. Timestamps are written as Date objects, which JSON Schema
// cannot describe: they stay out of `properties`. bigint columns (ids, fen, milliseconds) are
// read as numbers (db/knex.ts). Relations stay inside billing: users and containers are read
// through ports.ts.

/** What a ledger row is about; the billing records show recharge / expense / refund from it. */
export type LedgerKind = 'recharge' | 'expense' | 'refund' | 'credit' | 'coupon' | 'adjustment';
export type PaymentMethod = 'wechat' | 'alipay' | 'balance' | 'system' | 'other';
export type PaymentStatus = 'pending' | 'success' | 'failed' | 'closed';
export type OrderStatus = 'pending' | 'paid' | 'cancelled' | 'completed' | 'running' | 'stopped';
export type OrderType = 'purchase' | 'renewal';
export type InvoiceStatus = 'pending' | 'issued' | 'cancelled';
/** A coupon's status as listed: an unused coupon past its expiry is 'expired'. */
export type CouponStatus = 'unused' | 'used' | 'expired';
export type NoticeKind =
  | 'expiry_warning'
  | 'release_warning'
  | 'stopped_balance'
  | 'stopped_expired'
  | 'released'
  /** A GPU the container holds failed or disappeared (ref_at: when it became unusable). */
  | 'gpu_problem';

/** The statuses of an order that can be invoiced (paid for). */
export const INVOICEABLE_STATUSES: OrderStatus[] = ['paid', 'running', 'stopped', 'completed'];

const nullable = (type: string) => ({ type: [type, 'null'] });

/** A user's money: the balance the ledger writes, the low-balance alert threshold. */
export class BillingAccountModel extends Model {
  static override tableName = 'billing_accounts';
  static override idColumn = 'user_id';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  // balance_alert_sent_at is a Date: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['user_id'],
    properties: {
      user_id: { type: 'integer' },
      balance_fen: { type: 'integer' },
      alert_threshold_fen: { type: 'integer' },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    entries: {
      relation: Model.HasManyRelation,
      modelClass: LedgerEntryModel,
      join: { from: 'billing_accounts.user_id', to: 'ledger_entries.user_id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<BillingAccountModel>> = {
    /** One array parameter, however many users (a settlement passes them all). */
    ofUsers(query, userIds: number[]) {
      query.whereRaw('billing_accounts.user_id = any(?::bigint[])', [sqlArray(userIds)]);
    },
    /** Something left: a balance above zero. */
    funded(query) {
      query.where('billing_accounts.balance_fen', '>', 0);
    },
    /** Below the alert threshold (still above zero), and not warned since it fell there. */
    dueLowBalanceAlert(query) {
      query
        .whereNull('billing_accounts.balance_alert_sent_at')
        .whereRaw('billing_accounts.balance_fen < billing_accounts.alert_threshold_fen')
        .where('billing_accounts.balance_fen', '>', 0);
    },
  };

  user_id!: number;
  balance_fen!: number;
  alert_threshold_fen!: number;
  balance_alert_sent_at!: Date | null;

  entries?: LedgerEntryModel[];
}

/** The one ledger: every change of a balance is a row here, written in the same transaction. */
export class LedgerEntryModel extends Model {
  static override tableName = 'ledger_entries';
  static override useLimitInFirst = true;

  // created_at is a Date: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['user_id', 'amount_fen', 'balance_after_fen', 'kind', 'description', 'payment_method'],
    properties: {
      id: { type: 'integer' },
      user_id: { type: 'integer' },
      amount_fen: { type: 'integer' },
      balance_after_fen: { type: 'integer' },
      kind: { type: 'string', enum: ['recharge', 'expense', 'refund', 'credit', 'coupon', 'adjustment'] },
      description: { type: 'string' },
      payment_method: { type: 'string', enum: ['wechat', 'alipay', 'balance', 'system', 'other'] },
      container_id: nullable('string'),
      order_id: nullable('integer'),
      payment_id: nullable('integer'),
      coupon_id: nullable('integer'),
      admin_id: nullable('integer'),
      billed_seconds: nullable('integer'),
      unique_key: nullable('string'),
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    account: {
      relation: Model.BelongsToOneRelation,
      modelClass: BillingAccountModel,
      join: { from: 'ledger_entries.user_id', to: 'billing_accounts.user_id' },
    },
    order: {
      relation: Model.BelongsToOneRelation,
      modelClass: ContainerOrderModel,
      join: { from: 'ledger_entries.order_id', to: 'container_orders.id' },
    },
    payment: {
      relation: Model.BelongsToOneRelation,
      modelClass: PaymentModel,
      join: { from: 'ledger_entries.payment_id', to: 'payments.id' },
    },
    coupon: {
      relation: Model.BelongsToOneRelation,
      modelClass: CouponModel,
      join: { from: 'ledger_entries.coupon_id', to: 'coupons.id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<LedgerEntryModel>> = {
    ofUser(query, userId: number) {
      query.where('ledger_entries.user_id', userId);
    },
    /** Money in (above zero). */
    income(query) {
      query.where('ledger_entries.amount_fen', '>', 0);
    },
    /** Money out (below zero). */
    expense(query) {
      query.where('ledger_entries.amount_fen', '<', 0);
    },
    /** The credits coupons gave (not their returns). */
    couponCredits(query) {
      query
        .where('ledger_entries.kind', 'coupon')
        .where('ledger_entries.amount_fen', '>', 0)
        .whereNotNull('ledger_entries.coupon_id');
    },
  };

  id!: number;
  user_id!: number;
  amount_fen!: number;
  balance_after_fen!: number;
  kind!: LedgerKind;
  description!: string;
  payment_method!: PaymentMethod;
  container_id!: string | null;
  order_id!: number | null;
  payment_id!: number | null;
  coupon_id!: number | null;
  admin_id!: number | null;
  billed_seconds!: number | null;
  unique_key!: string | null;
  created_at!: Date;

  account?: BillingAccountModel;
  order?: ContainerOrderModel | null;
  payment?: PaymentModel | null;
  coupon?: CouponModel | null;
}

/** A top-up or an order's payment through WeChat Pay (or its sandbox). */
export class PaymentModel extends Model {
  static override tableName = 'payments';
  static override useLimitInFirst = true;

  // created_at, paid_at and closed_at are Dates: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['out_trade_no', 'user_id', 'amount_fen', 'provider', 'description'],
    properties: {
      id: { type: 'integer' },
      out_trade_no: { type: 'string' },
      user_id: { type: 'integer' },
      amount_fen: { type: 'integer' },
      provider: { type: 'string', enum: ['wechat', 'sandbox'] },
      status: { type: 'string', enum: ['pending', 'success', 'failed', 'closed'] },
      trade_state: { type: 'string' },
      code_url: nullable('string'),
      transaction_id: nullable('string'),
      description: { type: 'string' },
      order_id: nullable('integer'),
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    order: {
      relation: Model.BelongsToOneRelation,
      modelClass: ContainerOrderModel,
      join: { from: 'payments.order_id', to: 'container_orders.id' },
    },
    entries: {
      relation: Model.HasManyRelation,
      modelClass: LedgerEntryModel,
      join: { from: 'payments.id', to: 'ledger_entries.payment_id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<PaymentModel>> = {
    /** Created, neither paid nor closed yet. */
    pending(query) {
      query.where('payments.status', 'pending');
    },
  };

  id!: number;
  out_trade_no!: string;
  user_id!: number;
  amount_fen!: number;
  provider!: 'wechat' | 'sandbox';
  status!: PaymentStatus;
  trade_state!: string;
  code_url!: string | null;
  transaction_id!: string | null;
  description!: string;
  order_id!: number | null;
  created_at!: Date;
  paid_at!: Date | null;
  closed_at!: Date | null;

  order?: ContainerOrderModel | null;
  entries?: LedgerEntryModel[];
}

/** A coupon (卡券): granted by an admin, applied once to a purchase or top-up. */
export class CouponModel extends Model {
  static override tableName = 'coupons';
  static override useLimitInFirst = true;

  // expires_at, selected_at, used_at and created_at are Dates: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['user_id', 'name', 'amount_fen'],
    properties: {
      id: { type: 'integer' },
      user_id: { type: 'integer' },
      name: { type: 'string' },
      amount_fen: { type: 'integer' },
      min_amount_fen: { type: 'integer' },
      status: { type: 'string', enum: ['unused', 'used'] },
      used_for: nullable('string'),
      created_by: nullable('integer'),
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    entries: {
      relation: Model.HasManyRelation,
      modelClass: LedgerEntryModel,
      join: { from: 'coupons.id', to: 'ledger_entries.coupon_id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<CouponModel>> = {
    ofUser(query, userId: number) {
      query.where('coupons.user_id', userId);
    },
    /** The coupons listed under `status` at `now` (any status when undefined). */
    withStatus(query, status: CouponStatus | undefined, now: Date) {
      if (status === 'used') query.where('coupons.status', 'used');
      else if (status === 'unused')
        query.where('coupons.status', 'unused').where('coupons.expires_at', '>', now);
      else if (status === 'expired')
        query.where('coupons.status', 'unused').where('coupons.expires_at', '<=', now);
    },
  };

  id!: number;
  user_id!: number;
  name!: string;
  amount_fen!: number;
  min_amount_fen!: number;
  expires_at!: Date;
  status!: 'unused' | 'used';
  selected_at!: Date | null;
  used_at!: Date | null;
  used_for!: string | null;
  created_by!: number | null;
  created_at!: Date;

  entries?: LedgerEntryModel[];
}

/** The metering of an hourly container at one rate (GPU or no-GPU price). */
export class ContainerMeterModel extends Model {
  static override tableName = 'container_meters';
  static override useLimitInFirst = true;

  // running_since and updated_at are Dates: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['container_id', 'user_id', 'rate_fen_per_hour'],
    properties: {
      id: { type: 'integer' },
      container_id: { type: 'string' },
      user_id: { type: 'integer' },
      order_id: nullable('integer'),
      rate_fen_per_hour: { type: 'integer' },
      billed_ms: { type: 'integer' },
      charged_fen: { type: 'integer' },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    order: {
      relation: Model.BelongsToOneRelation,
      modelClass: ContainerOrderModel,
      join: { from: 'container_meters.order_id', to: 'container_orders.id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<ContainerMeterModel>> = {
    ofContainer(query, containerId: string) {
      query.where('container_meters.container_id', containerId);
    },
    /** Running: counting time since running_since. */
    open(query) {
      query.whereNotNull('container_meters.running_since');
    },
  };

  id!: number;
  container_id!: string;
  user_id!: number;
  order_id!: number | null;
  rate_fen_per_hour!: number;
  billed_ms!: number;
  charged_fen!: number;
  running_since!: Date | null;
  updated_at!: Date;

  order?: ContainerOrderModel | null;
}

/**
 * What an order has invoiced: the sum of its pending and issued invoices (the `counted` ones), a
 * subquery of the order's `invoices` relation.
 */
const invoicedFen = () =>
  raw('coalesce(?, 0)', [
    ContainerOrderModel.relatedQuery('invoices').modify('counted').sum('invoices.amount_fen'),
  ]);

/** A container order: a purchase or a renewal, paid from the balance or by WeChat. */
export class ContainerOrderModel extends Model {
  static override tableName = 'container_orders';
  static override useLimitInFirst = true;

  // start_time, end_time, paid_at and created_at are Dates: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: [
      'order_no',
      'user_id',
      'container_id',
      'order_type',
      'billing_type',
      'product_name',
      'unit_price_fen',
      'status',
    ],
    properties: {
      id: { type: 'integer' },
      order_no: { type: 'string' },
      user_id: { type: 'integer' },
      container_id: { type: 'string' },
      order_type: { type: 'string', enum: ['purchase', 'renewal'] },
      billing_type: { type: 'string' },
      product_name: { type: 'string' },
      server_name: { type: 'string' },
      gpu_type: { type: 'string' },
      gpu_count: { type: 'integer' },
      region: { type: 'string' },
      unit_price_fen: { type: 'integer' },
      duration: { type: 'integer' },
      amount_fen: { type: 'integer' },
      discount_fen: { type: 'integer' },
      billed_seconds: { type: 'integer' },
      status: { type: 'string', enum: ['pending', 'paid', 'cancelled', 'completed', 'running', 'stopped'] },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    invoices: {
      relation: Model.HasManyRelation,
      modelClass: InvoiceModel,
      join: { from: 'container_orders.id', to: 'invoices.order_id' },
    },
    meters: {
      relation: Model.HasManyRelation,
      modelClass: ContainerMeterModel,
      join: { from: 'container_orders.id', to: 'container_meters.order_id' },
    },
    payments: {
      relation: Model.HasManyRelation,
      modelClass: PaymentModel,
      join: { from: 'container_orders.id', to: 'payments.order_id' },
    },
    entries: {
      relation: Model.HasManyRelation,
      modelClass: LedgerEntryModel,
      join: { from: 'container_orders.id', to: 'ledger_entries.order_id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<ContainerOrderModel>> = {
    ofUser(query, userId: number) {
      query.where('container_orders.user_id', userId);
    },
    ofContainer(query, containerId: string) {
      query.where('container_orders.container_id', containerId);
    },
    /** Selects the order with `invoiced_fen`, the amount of its pending and issued invoices. */
    withInvoiced(query) {
      query.select('container_orders.*', raw('?::bigint', [invoicedFen()]).as('invoiced_fen'));
    },
    /** Paid for, with an amount not invoiced yet. */
    invoiceable(query) {
      query
        .whereIn('container_orders.status', INVOICEABLE_STATUSES)
        .where('container_orders.amount_fen', '>', invoicedFen());
    },
  };

  id!: number;
  order_no!: string;
  user_id!: number;
  container_id!: string;
  order_type!: OrderType;
  billing_type!: string;
  product_name!: string;
  server_name!: string;
  gpu_type!: string;
  gpu_count!: number;
  region!: string;
  unit_price_fen!: number;
  duration!: number;
  amount_fen!: number;
  discount_fen!: number;
  billed_seconds!: number;
  status!: OrderStatus;
  start_time!: Date | null;
  end_time!: Date | null;
  paid_at!: Date | null;
  created_at!: Date;

  invoices?: InvoiceModel[];
  meters?: ContainerMeterModel[];
  payments?: PaymentModel[];
  entries?: LedgerEntryModel[];
}

/** An invoice (发票) applied for on an order, issued by an admin. */
export class InvoiceModel extends Model {
  static override tableName = 'invoices';
  static override useLimitInFirst = true;

  // issued_at and created_at are Dates: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['invoice_no', 'user_id', 'order_id', 'title', 'tax_no', 'amount_fen'],
    properties: {
      id: { type: 'integer' },
      invoice_no: { type: 'string' },
      user_id: { type: 'integer' },
      order_id: { type: 'integer' },
      title: { type: 'string' },
      tax_no: { type: 'string' },
      amount_fen: { type: 'integer' },
      status: { type: 'string', enum: ['pending', 'issued', 'cancelled'] },
      issued_by: nullable('integer'),
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    order: {
      relation: Model.BelongsToOneRelation,
      modelClass: ContainerOrderModel,
      join: { from: 'invoices.order_id', to: 'container_orders.id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<InvoiceModel>> = {
    /** Pending or issued: the invoices that take their amount from the order's invoiceable one. */
    counted(query) {
      query.whereIn('invoices.status', ['pending', 'issued']);
    },
  };

  id!: number;
  invoice_no!: string;
  user_id!: number;
  order_id!: number;
  title!: string;
  tax_no!: string;
  amount_fen!: number;
  status!: InvoiceStatus;
  issued_by!: number | null;
  issued_at!: Date | null;
  created_at!: Date;

  order?: ContainerOrderModel;
}

/** One row per settlement slot: the proof that a slot ran once, whichever replica ran it. */
export class SettlementRunModel extends Model {
  static override tableName = 'settlement_runs';
  static override idColumn = 'slot';
  static override useLimitInFirst = true;

  // ran_at is a Date: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['slot', 'replica'],
    properties: {
      slot: { type: 'integer' },
      replica: { type: 'string' },
      meters: { type: 'integer' },
      charged_fen: { type: 'integer' },
    },
  };

  slot!: number;
  replica!: string;
  meters!: number;
  charged_fen!: number;
  ran_at!: Date;
}

/** A notice sent about a container: one per container, kind and moment. */
export class ContainerNoticeModel extends Model {
  static override tableName = 'container_notices';
  static override idColumn = ['container_id', 'kind', 'ref_at'];
  static override useLimitInFirst = true;

  // ref_at and created_at are Dates: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['container_id', 'kind'],
    properties: {
      container_id: { type: 'string' },
      kind: {
        type: 'string',
        enum: [
          'expiry_warning',
          'release_warning',
          'stopped_balance',
          'stopped_expired',
          'released',
          'gpu_problem',
        ],
      },
    },
  };

  container_id!: string;
  kind!: NoticeKind;
  ref_at!: Date;
  created_at!: Date;
}

export type AccountRow = Pick<
  BillingAccountModel,
  'user_id' | 'balance_fen' | 'alert_threshold_fen' | 'balance_alert_sent_at'
>;

export type LedgerRow = Pick<
  LedgerEntryModel,
  | 'id'
  | 'user_id'
  | 'amount_fen'
  | 'balance_after_fen'
  | 'kind'
  | 'description'
  | 'payment_method'
  | 'container_id'
  | 'order_id'
  | 'payment_id'
  | 'coupon_id'
  | 'admin_id'
  | 'billed_seconds'
  | 'created_at'
>;

export type PaymentRow = Pick<
  PaymentModel,
  | 'id'
  | 'out_trade_no'
  | 'user_id'
  | 'amount_fen'
  | 'provider'
  | 'status'
  | 'trade_state'
  | 'code_url'
  | 'transaction_id'
  | 'description'
  | 'order_id'
  | 'created_at'
  | 'paid_at'
  | 'closed_at'
>;

export type CouponRow = Pick<
  CouponModel,
  | 'id'
  | 'user_id'
  | 'name'
  | 'amount_fen'
  | 'min_amount_fen'
  | 'expires_at'
  | 'status'
  | 'selected_at'
  | 'used_at'
  | 'used_for'
  | 'created_by'
  | 'created_at'
>;

export type MeterRow = Pick<
  ContainerMeterModel,
  | 'id'
  | 'container_id'
  | 'user_id'
  | 'order_id'
  | 'rate_fen_per_hour'
  | 'billed_ms'
  | 'charged_fen'
  | 'running_since'
>;

export type OrderRow = Pick<
  ContainerOrderModel,
  | 'id'
  | 'order_no'
  | 'user_id'
  | 'container_id'
  | 'order_type'
  | 'billing_type'
  | 'product_name'
  | 'server_name'
  | 'gpu_type'
  | 'gpu_count'
  | 'region'
  | 'unit_price_fen'
  | 'duration'
  | 'amount_fen'
  | 'discount_fen'
  | 'billed_seconds'
  | 'status'
  | 'start_time'
  | 'end_time'
  | 'paid_at'
  | 'created_at'
>;

export type InvoiceRow = Pick<
  InvoiceModel,
  | 'id'
  | 'invoice_no'
  | 'user_id'
  | 'order_id'
  | 'title'
  | 'tax_no'
  | 'amount_fen'
  | 'status'
  | 'issued_by'
  | 'issued_at'
  | 'created_at'
>;
