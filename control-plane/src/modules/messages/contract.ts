// The admin outbox's reply (消息发件箱), written once: the route is typed by it and the console
// imports its type (src/api.ts). Only zod here.
import { z } from 'zod';

/** A message a sandbox provider kept instead of sending it. */
export const outboxMessageReply = z.object({
  id: z.number(),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  code: z.string().nullable(),
  created_at: z.string(),
});
export type OutboxMessageReply = z.infer<typeof outboxMessageReply>;

/** GET /api/admin/outbox: a page of messages, and which providers are live. */
export const outboxListReply = z.object({
  items: z.array(outboxMessageReply),
  total: z.number(),
  /** 'sandbox': messages land here instead of being sent. */
  providers: z.object({ email: z.enum(['smtp', 'sandbox']), sms: z.enum(['aliyun', 'sandbox']) }),
});
export type OutboxListReply = z.infer<typeof outboxListReply>;
