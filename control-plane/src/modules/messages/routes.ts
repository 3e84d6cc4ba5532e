import Router from '@koa/router';
import { type AppState, requireAdmin } from '../../framework/auth.js';
import { parse } from '../../framework/validate.js';
import type { OutboxListReply } from './contract.js';
import { outboxQuery } from './schema.js';
import type { MessagesService } from './service.js';

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
