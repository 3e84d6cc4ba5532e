import { z } from 'zod';
import { pageField } from '../../framework/fields.js';

/** GET /api/admin/outbox: the sandbox providers' messages, by page. */
export const outboxQuery = z.object({
  page: pageField(),
  size: z.coerce
    .number({ invalid_type_error: '每页条数为 1-100' })
    .int('每页条数为 1-100')
    .min(1, '每页条数为 1-100')
    .max(100, '每页条数为 1-100')
    .default(20),
  channel: z.enum(['email', 'sms'], { errorMap: () => ({ message: '渠道只能是 email 或 sms' }) }).optional(),
  to: z.string().trim().max(255, '收件人不能超过255个字符').optional(),
});
