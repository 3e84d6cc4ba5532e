// The billing module's replies (费用中心: balance, records, orders, invoices, coupons, payments;
// the admin money pages), written once: the views are typed by them and the console imports
// their types (src/api.ts). Only zod here.
import { z } from 'zod';

const list = <T extends z.ZodTypeAny>(item: T) => z.object({ items: z.array(item), total: z.number() });

/** GET /api/billing/balance, and the answer of the alert threshold and of an admin adjustment. */
export const balanceReply = z.object({ balance: z.number(), alert_threshold: z.number() });
export type BalanceReply = z.infer<typeof balanceReply>;

/** GET /api/billing/statistics. */
export const statisticsReply = z.object({
  total_expense: z.number(),
  total_recharge: z.number(),
  available_coupons: z.number(),
});
export type StatisticsReply = z.infer<typeof statisticsReply>;

/** POST /api/billing/wechat/create (201): the QR of a top-up or an order's payment. */
export const createdPaymentReply = z.object({
  out_trade_no: z.string(),
  code_url: z.string(),
  amount: z.number(),
  provider: z.enum(['wechat', 'sandbox']),
});
export type CreatedPaymentReply = z.infer<typeof createdPaymentReply>;

/** GET /api/billing/wechat/query: the trade state the console polls. */
export const tradeStateReply = z.object({ out_trade_no: z.string(), trade_state: z.string() });
export type TradeStateReply = z.infer<typeof tradeStateReply>;

/** POST /api/billing/wechat/cancel and the sandbox page's pay. */
export const paymentClosedReply = z.object({ ok: z.literal(true), trade_state: z.string() });
export type PaymentClosedReply = z.infer<typeof paymentClosedReply>;

/** GET /api/billing/wechat/sandbox/{no}: what the sandbox payment page shows. */
export const sandboxPaymentReply = z.object({
  out_trade_no: z.string(),
  amount: z.number(),
  description: z.string(),
  trade_state: z.string(),
});
export type SandboxPaymentReply = z.infer<typeof sandboxPaymentReply>;

/** A billing record (GET /api/billing/billing-records item). */
export const billingRecordReply = z.object({
  /** `<source>-<id>`. */
  id: z.string(),
  source: z.enum(['ledger', 'payment', 'order']),
  create_time: z.string(),
  type: z.enum(['expense', 'recharge', 'refund']),
  description: z.string(),
  /** Hours, 2 decimals; null when the record has no duration (a recharge). */
  duration: z.number().nullable(),
  /** Signed yuan: expenses are negative. */
  amount: z.number(),
  payment_method: z.string(),
  status: z.enum(['success', 'pending', 'failed']),
  out_trade_no: z.string().nullable(),
  /** A pending WeChat top-up's QR (pay now shows it again). */
  code_url: z.string().nullable(),
  order_id: z.number().nullable(),
});
export type BillingRecordReply = z.infer<typeof billingRecordReply>;

export const billingRecordListReply = list(billingRecordReply);
export type BillingRecordListReply = z.infer<typeof billingRecordListReply>;

/** A ledger transaction (GET /api/transactions item). */
export const transactionReply = z.object({
  id: z.number(),
  create_time: z.string(),
  type: z.enum(['收入', '支出']),
  amount: z.number(),
  balance_after: z.number(),
  description: z.string(),
  /** The order's number, when the transaction belongs to one. */
  order_id: z.string().nullable(),
});
export type TransactionReply = z.infer<typeof transactionReply>;

export const transactionListReply = list(transactionReply);
export type TransactionListReply = z.infer<typeof transactionListReply>;

export const ORDER_STATUSES = ['pending', 'paid', 'cancelled', 'completed', 'running', 'stopped'] as const;

/** A container order (GET /api/orders item, /api/orders/{id}, cancel). */
export const orderReply = z.object({
  id: z.number(),
  /** The order number. */
  order_id: z.string(),
  container_id: z.string(),
  create_time: z.string(),
  product_type: z.string(),
  product_name: z.string(),
  /** purchase / renewal. */
  order_type: z.string(),
  billing_method: z.string(),
  unit_price: z.number(),
  duration: z.number(),
  /** Hours used (hourly) or bought (prepaid), 2 decimals. */
  usage_duration: z.number(),
  amount: z.number(),
  discount: z.number(),
  invoiced_amount: z.number(),
  invoiceable_amount: z.number(),
  status: z.enum(ORDER_STATUSES),
  container_server_name: z.string(),
  container_gpu_type: z.string(),
  container_gpu_count: z.number(),
  container_region: z.string(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  paid_at: z.string().nullable(),
});
export type OrderReply = z.infer<typeof orderReply>;

export const orderListReply = list(orderReply);
export type OrderListReply = z.infer<typeof orderListReply>;

/** POST /api/orders/{id}/pay and /api/containers/{id}/renew. */
export const payReply = z.object({
  order_id: z.number(),
  status: z.enum(['paid', 'pending']),
  amount: z.number(),
  /** With WeChat: the QR to pay the order. */
  payment: createdPaymentReply.optional(),
});
export type PayReply = z.infer<typeof payReply>;

/** An invoice (发票): GET /api/invoices item, apply, cancel, issue. */
export const invoiceReply = z.object({
  id: z.number(),
  invoice_no: z.string(),
  title: z.string(),
  tax_no: z.string(),
  amount: z.number(),
  status: z.enum(['pending', 'issued', 'cancelled']),
  create_time: z.string(),
  issued_at: z.string().nullable(),
  order_id: z.number(),
  order_no: z.string(),
  /** The applicant (the admin list). */
  username: z.string().optional(),
});
export type InvoiceReply = z.infer<typeof invoiceReply>;

export const invoiceListReply = list(invoiceReply);
export type InvoiceListReply = z.infer<typeof invoiceListReply>;

/** A coupon (卡券): GET /api/coupons item, use. */
export const couponReply = z.object({
  id: z.number(),
  name: z.string(),
  amount: z.number(),
  minAmount: z.number(),
  expireDate: z.string(),
  status: z.enum(['unused', 'used', 'expired']),
  /** Marked with 'use': applied at the next purchase or top-up reaching minAmount. */
  selected: z.boolean(),
  used_at: z.string().nullable(),
  used_for: z.string().nullable(),
  /** The owner (the admin list). */
  username: z.string().optional(),
});
export type CouponReply = z.infer<typeof couponReply>;

export const couponListReply = list(couponReply);
export type CouponListReply = z.infer<typeof couponListReply>;

/** POST /api/admin/coupons (201). */
export const grantedCouponsReply = z.object({ created: z.number() });
export type GrantedCouponsReply = z.infer<typeof grantedCouponsReply>;

/** A payment as the admin list shows it (GET /api/admin/payments item). */
export const adminPaymentReply = z.object({
  id: z.number(),
  out_trade_no: z.string(),
  amount: z.number(),
  provider: z.enum(['wechat', 'sandbox']),
  status: z.enum(['pending', 'success', 'failed', 'closed']),
  trade_state: z.string(),
  transaction_id: z.string().nullable(),
  description: z.string(),
  order_id: z.number().nullable(),
  create_time: z.string(),
  paid_at: z.string().nullable(),
  username: z.string().optional(),
});
export type AdminPaymentReply = z.infer<typeof adminPaymentReply>;

export const adminPaymentListReply = list(adminPaymentReply);
export type AdminPaymentListReply = z.infer<typeof adminPaymentListReply>;
