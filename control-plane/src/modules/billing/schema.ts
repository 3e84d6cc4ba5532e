import { z } from 'zod';
import { idField, isSaneDate, offsetField, pageField, pageSizeField } from '../../framework/fields.js';

/**
 * The largest amounts a request may name, in yuan. Each is far above what the platform sells and
 * far below where fen stop being exact in a double (2^53 fen ≈ 9×10^13 yuan), so sums of them stay
 * exact and PostgreSQL's bigint never overflows.
 */
export const MAX_TOP_UP_YUAN = 100_000; // one payment (WeChat Pay's own limits are lower still)
export const MAX_THRESHOLD_YUAN = 1_000_000; // a balance alert above the largest sane balance
export const MAX_ADJUST_YUAN = 1_000_000; // one admin adjustment, either way
export const MAX_COUPON_YUAN = 10_000; // a coupon's face value: a promotion, never a balance
export const MAX_COUPON_MIN_YUAN = 1_000_000; // a coupon's threshold (a purchase or top-up)
export const MAX_INVOICE_YUAN = 10_000_000; // an invoice (the service also caps it at the order)

/**
 * Yuan with at most 2 decimals, as fen; finite, within [min, max] yuan (min defaults to -max,
 * with the same message).
 */
function yuanAmount(m: {
  required: string;
  decimals: string;
  max: number;
  tooBig: string;
  min?: number;
  tooSmall?: string;
}) {
  return z
    .number({ required_error: m.required, invalid_type_error: m.required })
    .finite(m.required)
    .refine((v) => v >= (m.min ?? -m.max), m.tooSmall ?? m.tooBig)
    .refine((v) => v <= m.max, m.tooBig)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, m.decimals)
    .transform((v) => Math.round(v * 100));
}

const DECIMALS = '金额最多保留两位小数';

export const topUpSchema = z.object({
  amount: yuanAmount({
    required: '请输入充值金额',
    decimals: DECIMALS,
    max: MAX_TOP_UP_YUAN,
    tooBig: `单笔充值金额最多为${MAX_TOP_UP_YUAN}元`,
    min: 1,
    tooSmall: '充值金额最少为1元',
  }),
  payment_method: z.enum(['wechat'], {
    errorMap: () => ({ message: '暂不支持该支付方式，请选择微信支付或联系客服' }),
  }),
  description: z.string().trim().max(100, '充值说明最多100个字符').optional(),
});

export const thresholdSchema = z.object({
  threshold: yuanAmount({
    required: '请输入告警阈值',
    decimals: '告警阈值最多保留两位小数',
    max: MAX_THRESHOLD_YUAN,
    tooBig: `告警阈值不能超过${MAX_THRESHOLD_YUAN}元`,
    min: 0,
    tooSmall: '告警阈值不能小于0',
  }),
});

export const tradeNoQuery = z.object({
  out_trade_no: z
    .string({ required_error: '缺少支付订单号' })
    .regex(/^[A-Za-z0-9_|*-]{6,32}$/, '支付订单号不正确'),
});

const isoDate = z
  .string({ invalid_type_error: '日期格式不正确' })
  .max(64, '日期格式不正确')
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    const d = new Date(v);
    if (!isSaneDate(d)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: '日期格式不正确' });
      return z.NEVER;
    }
    return d;
  });

export const recordsQuery = z.object({
  skip: offsetField(),
  limit: pageSizeField([10, 20, 50, 100], 10),
  type: z.enum(['all', 'expense', 'recharge', 'refund']).default('all'),
  start_date: isoDate,
  end_date: isoDate,
});

export const skipLimitQuery = z.object({
  skip: offsetField(),
  limit: z.coerce
    .number({ invalid_type_error: '每页条数为 1-100' })
    .int('每页条数为 1-100')
    .min(1, '每页条数为 1-100')
    .max(100, '每页条数为 1-100')
    .default(10),
});

export const ordersQuery = skipLimitQuery.extend({
  status: z
    .enum(['pending', 'paid', 'cancelled', 'completed', 'running', 'stopped', 'invoiceable'])
    .optional(),
});

export const transactionsQuery = z.object({
  page: pageField(),
  page_size: pageSizeField([10, 20, 50, 100], 10),
  type: z
    .enum(['all', 'income', 'expense', '收入', '支出', ''])
    .default('all')
    .transform((t) =>
      t === 'income' || t === '收入' ? 'income' : t === 'expense' || t === '支出' ? 'expense' : undefined,
    ),
});

export const invoicesQuery = z.object({
  page: pageField(),
  page_size: pageSizeField([10, 20, 50, 100], 10),
  status: z.enum(['pending', 'issued', 'cancelled']).optional(),
});

export const invoiceApplySchema = z.object({
  order_id: idField('请选择订单', { coerce: true }),
  title: z
    .string({ required_error: '请输入发票抬头' })
    .trim()
    .min(1, '请输入发票抬头')
    .max(100, '发票抬头最多100个字符'),
  tax_no: z
    .string({ required_error: '请输入税号' })
    .trim()
    .regex(/^[0-9A-Za-z]{15,20}$/, '税号格式不正确（15-20位字母或数字）'),
  amount: yuanAmount({
    required: '请输入开票金额',
    decimals: DECIMALS,
    max: MAX_INVOICE_YUAN,
    tooBig: `开票金额不能超过${MAX_INVOICE_YUAN}元`,
    min: 0,
    tooSmall: '开票金额不能小于0',
  }),
});

export const invoiceStatusSchema = z.object({
  status: z.enum(['pending', 'issued', 'cancelled'], { errorMap: () => ({ message: '发票状态不正确' }) }),
});

export const couponsQuery = z.object({
  page: pageField(),
  page_size: pageSizeField([9, 18, 36], 9),
  status: z.enum(['unused', 'used', 'expired']).optional(),
});

export const payMethodSchema = z.object({
  payment_method: z.enum(['balance', 'wechat'], { errorMap: () => ({ message: '请选择支付方式' }) }),
});

export const renewSchema = payMethodSchema.extend({
  duration: z.coerce
    .number({ invalid_type_error: '请输入使用时长' })
    .int('时长必须为整数')
    .min(1, '时长必须大于0')
    // The longest of any billing type (hourly: 720); the order checks the container's own.
    .max(720, '使用时长最多为720'),
});

// ------------------------------------------------------------------ admin

export const adjustSchema = z.object({
  amount: yuanAmount({
    required: '请输入调整金额',
    decimals: DECIMALS,
    max: MAX_ADJUST_YUAN,
    tooBig: `单次调整金额不能超过${MAX_ADJUST_YUAN}元`,
  }),
  reason: z
    .string({ required_error: '请输入调整原因' })
    .trim()
    .min(1, '请输入调整原因')
    .max(100, '调整原因最多100个字符'),
});

export const adminPageQuery = z.object({
  page: pageField(),
  size: pageSizeField([10, 20, 50, 100], 20),
  username: z.string().trim().max(64, '用户名不能超过64个字符').optional(),
});

export const adminPaymentsQuery = adminPageQuery.extend({
  status: z.enum(['pending', 'success', 'failed', 'closed']).optional(),
});

export const adminInvoicesQuery = adminPageQuery.extend({
  status: z.enum(['pending', 'issued', 'cancelled']).optional(),
});

export const adminCouponsQuery = adminPageQuery.extend({
  status: z.enum(['unused', 'used', 'expired']).optional(),
});

export const grantCouponsSchema = z.object({
  name: z
    .string({ required_error: '请输入卡券名称' })
    .trim()
    .min(1, '请输入卡券名称')
    .max(64, '卡券名称最多64个字符'),
  amount: yuanAmount({
    required: '请输入面额',
    decimals: DECIMALS,
    max: MAX_COUPON_YUAN,
    tooBig: `面额不能超过${MAX_COUPON_YUAN}元`,
    min: 0,
    tooSmall: '面额必须大于0',
  }).refine((f) => f > 0, '面额必须大于0'),
  minAmount: yuanAmount({
    required: '请输入使用门槛',
    decimals: DECIMALS,
    max: MAX_COUPON_MIN_YUAN,
    tooBig: `使用门槛不能超过${MAX_COUPON_MIN_YUAN}元`,
    min: 0,
    tooSmall: '使用门槛不能小于0',
  }),
  expireDate: z
    .string({ required_error: '请选择过期时间', invalid_type_error: '请选择过期时间' })
    .max(64, '过期时间格式不正确')
    .refine((v) => isSaneDate(new Date(v)), '过期时间格式不正确')
    .transform((v) => new Date(v)),
  usernames: z
    .array(z.string().trim().min(1, '用户名不能为空').max(64, '用户名不能超过64个字符'))
    .min(1, '请至少选择一个用户')
    .max(500, '一次最多发放给500个用户'),
});
