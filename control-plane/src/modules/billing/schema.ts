import { z } from 'zod';

/** Yuan with at most 2 decimals, as fen. */
function yuanAmount(messages: { required: string; decimals: string }) {
  return z
    .number({ required_error: messages.required, invalid_type_error: messages.required })
    .finite(messages.required)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, messages.decimals)
    .transform((v) => Math.round(v * 100));
}

const DECIMALS = '金额最多保留两位小数';

export const topUpSchema = z.object({
  amount: yuanAmount({ required: '请输入充值金额', decimals: DECIMALS })
    .refine((f) => f >= 100, '充值金额最少为1元')
    .refine((f) => f <= 10_000_000, '单笔充值金额最多为100000元'),
  payment_method: z.enum(['wechat'], {
    errorMap: () => ({ message: '暂不支持该支付方式，请选择微信支付或联系客服' }),
  }),
  description: z.string().trim().max(100).optional(),
});

export const thresholdSchema = z.object({
  threshold: yuanAmount({ required: '请输入告警阈值', decimals: '告警阈值最多保留两位小数' }).refine(
    (f) => f >= 0,
    '告警阈值不能小于0',
  ),
});

export const tradeNoQuery = z.object({
  out_trade_no: z
    .string({ required_error: '缺少支付订单号' })
    .regex(/^[A-Za-z0-9_|*-]{6,32}$/, '支付订单号不正确'),
});

const isoDate = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    const d = new Date(v);
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: '日期格式不正确' });
      return z.NEVER;
    }
    return d;
  });

export const recordsQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 50, 100].includes(n), '每页条数只能是10、20、50或100')
    .default(10),
  type: z.enum(['all', 'expense', 'recharge', 'refund']).default('all'),
  start_date: isoDate,
  end_date: isoDate,
});

export const skipLimitQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export const ordersQuery = skipLimitQuery.extend({
  status: z
    .enum(['pending', 'paid', 'cancelled', 'completed', 'running', 'stopped', 'invoiceable'])
    .optional(),
});

const pageSize = (sizes: number[], fallback: number) =>
  z.coerce
    .number()
    .int()
    .refine((n) => sizes.includes(n), `每页条数只能是${sizes.join('、')}`)
    .default(fallback);

export const transactionsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: pageSize([10, 20, 50, 100], 10),
  type: z
    .enum(['all', 'income', 'expense', '收入', '支出', ''])
    .default('all')
    .transform((t) =>
      t === 'income' || t === '收入' ? 'income' : t === 'expense' || t === '支出' ? 'expense' : undefined,
    ),
});

export const invoicesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: pageSize([10, 20, 50, 100], 10),
  status: z.enum(['pending', 'issued', 'cancelled']).optional(),
});

export const invoiceApplySchema = z.object({
  order_id: z.coerce.number({ invalid_type_error: '请选择订单' }).int().positive('请选择订单'),
  title: z
    .string({ required_error: '请输入发票抬头' })
    .trim()
    .min(1, '请输入发票抬头')
    .max(100, '发票抬头最多100个字符'),
  tax_no: z
    .string({ required_error: '请输入税号' })
    .trim()
    .regex(/^[0-9A-Za-z]{15,20}$/, '税号格式不正确（15-20位字母或数字）'),
  amount: yuanAmount({ required: '请输入开票金额', decimals: DECIMALS }).refine(
    (f) => f >= 0,
    '开票金额不能小于0',
  ),
});

export const invoiceStatusSchema = z.object({
  status: z.enum(['pending', 'issued', 'cancelled'], { errorMap: () => ({ message: '发票状态不正确' }) }),
});

export const couponsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: pageSize([9, 18, 36], 9),
  status: z.enum(['unused', 'used', 'expired']).optional(),
});

export const payMethodSchema = z.object({
  payment_method: z.enum(['balance', 'wechat'], { errorMap: () => ({ message: '请选择支付方式' }) }),
});

export const renewSchema = payMethodSchema.extend({
  duration: z.coerce
    .number({ invalid_type_error: '请输入使用时长' })
    .int('时长必须为整数')
    .min(1, '时长必须大于0'),
});

// ------------------------------------------------------------------ admin

export const adjustSchema = z.object({
  amount: yuanAmount({ required: '请输入调整金额', decimals: DECIMALS }),
  reason: z
    .string({ required_error: '请输入调整原因' })
    .trim()
    .min(1, '请输入调整原因')
    .max(100, '调整原因最多100个字符'),
});

export const adminPageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: pageSize([10, 20, 50, 100], 20),
  username: z.string().trim().max(64).optional(),
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
  amount: yuanAmount({ required: '请输入面额', decimals: DECIMALS }).refine((f) => f > 0, '面额必须大于0'),
  minAmount: yuanAmount({ required: '请输入使用门槛', decimals: DECIMALS }).refine(
    (f) => f >= 0,
    '使用门槛不能小于0',
  ),
  expireDate: z
    .string({ required_error: '请选择过期时间' })
    .refine((v) => !Number.isNaN(new Date(v).getTime()), '过期时间格式不正确')
    .transform((v) => new Date(v)),
  usernames: z
    .array(z.string().trim().min(1))
    .min(1, '请至少选择一个用户')
    .max(500, '一次最多发放给500个用户'),
});
