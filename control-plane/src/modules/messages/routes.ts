import Router from '@koa/router';
import { z } from 'zod';
import { type AppState, requireAdmin } from '../../framework/auth.js';
import { parse } from '../../framework/validate.js';
import type { OutboxListReply } from './contract.js';
import type { MessagesService } from './service.js';

const outboxQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  channel: z.enum(['email', 'sms']).optional(),
  to: z.string().trim().max(255).optional(),
});

/** GET /api/admin/outbox: the messages the sandbox providers kept, newest first. */
export function outboxAdminRoutes(messages: MessagesService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin/outbox' });
  router.use(requireAdmin);
  router.get('/', async (ctx) => {
    const q = parse(outboxQuery, ctx.query);
    const page = await messages.listOutbox({
      page: q.page,
      size: q.size,
      channel: q.channel,
      to: q.to || undefined,
    });
    ctx.body = { ...page, providers: messages.providers() } satisfies OutboxListReply;
  });
  return router;
}
