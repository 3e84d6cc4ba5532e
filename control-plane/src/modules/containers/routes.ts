import Router from '@koa/router';
import { z } from 'zod';
import { type AppState, currentUser, requireAdmin, requireUser } from '../../framework/auth.js';
import { badRequest } from '../../framework/errors.js';
import { idParam, parse } from '../../framework/validate.js';
import { purchaseSchema } from './schema.js';
import type { ContainersService } from './service.js';

function containerId(value: string | undefined): string {
  if (!value || !/^c-[a-z0-9]{6,24}$/.test(value)) throw badRequest('无效的容器编号', 'BAD_ID');
  return value;
}

export function containerRoutes(containers: ContainersService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });

  router.post('/cloud-products/:id/purchase', requireUser, async (ctx) => {
    const productId = idParam(ctx.params.id);
    const input = parse(purchaseSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await containers.purchase(currentUser(ctx), productId, input);
  });

  router.get('/containers', requireUser, async (ctx) => {
    ctx.body = await containers.listForUser(currentUser(ctx));
  });

  router.get('/containers/:id', requireUser, async (ctx) => {
    ctx.body = await containers.get(currentUser(ctx), containerId(ctx.params.id));
  });

  router.get('/containers/:id/status', requireUser, async (ctx) => {
    const view = await containers.get(currentUser(ctx), containerId(ctx.params.id));
    ctx.body = { status: view.status };
  });

  router.post('/containers/:id/start', requireUser, async (ctx) => {
    ctx.body = await containers.start(currentUser(ctx), containerId(ctx.params.id));
  });

  router.post('/containers/:id/stop', requireUser, async (ctx) => {
    ctx.body = await containers.stop(currentUser(ctx), containerId(ctx.params.id));
  });

  router.delete('/containers/:id', requireUser, async (ctx) => {
    await containers.destroy(currentUser(ctx), containerId(ctx.params.id));
    ctx.body = { ok: true };
  });

  return router;
}

const adminListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 50, 100].includes(n), '每页条数只能是 10、20、50 或 100')
    .default(20),
  username: z.string().trim().max(64).optional(),
  status: z
    .enum(['running', 'starting', 'stopped', 'error', 'failed', 'not_found', 'deleted', 'creating'])
    .optional(),
});

export function containerAdminRoutes(containers: ContainersService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin/containers' });
  router.use(requireAdmin);
  const admin = { admin: true };

  router.get('/', async (ctx) => {
    const q = parse(adminListQuery, ctx.query);
    ctx.body = await containers.listAll({
      page: q.page,
      size: q.size,
      username: q.username || undefined,
      status: q.status,
    });
  });
  router.post('/:id/start', async (ctx) => {
    ctx.body = await containers.start(currentUser(ctx), containerId(ctx.params.id), admin);
  });
  router.post('/:id/stop', async (ctx) => {
    ctx.body = await containers.stop(currentUser(ctx), containerId(ctx.params.id), admin);
  });
  router.delete('/:id', async (ctx) => {
    await containers.destroy(currentUser(ctx), containerId(ctx.params.id), admin);
    ctx.body = { ok: true };
  });
  return router;
}
