import Router from '@koa/router';
import { type AppState, currentUser, requireAdmin, requireUser } from '../../framework/auth.js';
import type { FastRead } from '../../framework/fast-path.js';
import { containerIdParam, idParam, parse } from '../../framework/validate.js';
import type { ContainerConfigService } from './config-service.js';
import type { ContainerStatusReply } from './contract.js';
import type { PurchaseService } from './purchase-service.js';
import {
  adminContainersQuery,
  containerMetricsQuery,
  metricsRange,
  purchaseSchema,
  resetPasswordSchema,
  startSchema,
  statusQuery,
  updateMountsSchema,
  updatePortsSchema,
} from './schema.js';
import type { ContainersService } from './service.js';
import type { ContainerView } from './view.js';

/** A container id from a route parameter (framework/validate.ts's containerIdParam). */
export const containerId = containerIdParam;

/** GET /api/containers: also answered before Koa for a remembered session (app.ts). */
export function containerListRead(containers: Pick<ContainersService, 'listForUser'>): FastRead {
  return { path: '/api/containers', read: (user) => containers.listForUser(user) };
}

export interface ContainerRouteDeps {
  containers: ContainersService;
  purchases: PurchaseService;
  containerConfig: ContainerConfigService;
}

export function containerRoutes({
  containers,
  purchases,
  containerConfig,
}: ContainerRouteDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });

  router.post('/cloud-products/:id/purchase', requireUser, async (ctx) => {
    const productId = idParam(ctx.params.id);
    const input = parse(purchaseSchema, ctx.request.body);
    const key = ctx.get('idempotency-key') || undefined;
    const answer = await purchases.purchaseOnce(currentUser(ctx), productId, input, key);
    ctx.status = answer.status;
    ctx.body = answer.body;
  });

  const list = containerListRead(containers);
  router.get('/containers', requireUser, async (ctx) => {
    ctx.body = await list.read(currentUser(ctx));
  });

  router.get('/containers/:id', requireUser, async (ctx) => {
    ctx.body = await containers.get(currentUser(ctx), containerId(ctx.params.id));
  });

  router.get('/containers/:id/status', requireUser, async (ctx) => {
    const query = parse(statusQuery, ctx.query);
    const id = containerId(ctx.params.id);
    let view: ContainerView;
    if (query.while && query.wait > 0) {
      // Waits for a change (the console's watch of a starting container); ends with the client.
      const gone = new AbortController();
      ctx.req.once('close', () => gone.abort());
      const known = { status: query.while, pullProgress: query.progress };
      view = await containers.waitForChange(currentUser(ctx), id, known, query.wait * 1000, gone.signal);
    } else {
      view = await containers.get(currentUser(ctx), id);
    }
    ctx.body = { status: view.status, pull_progress: view.pull_progress } satisfies ContainerStatusReply;
  });

  router.get('/containers/:id/metrics', requireUser, async (ctx) => {
    const range = metricsRange(parse(containerMetricsQuery, ctx.query));
    ctx.body = await containers.gpuMetrics(currentUser(ctx), containerId(ctx.params.id), range);
  });

  router.post('/containers/:id/start', requireUser, async (ctx) => {
    const { no_gpu } = parse(startSchema, ctx.request.body);
    ctx.body = await containers.start(currentUser(ctx), containerId(ctx.params.id), { noGpu: no_gpu });
  });

  router.post('/containers/:id/stop', requireUser, async (ctx) => {
    ctx.body = await containers.stop(currentUser(ctx), containerId(ctx.params.id));
  });

  router.delete('/containers/:id', requireUser, async (ctx) => {
    await containers.destroy(currentUser(ctx), containerId(ctx.params.id));
    ctx.body = { ok: true };
  });

  router.post('/containers/:id/reset-password', requireUser, async (ctx) => {
    const body = parse(resetPasswordSchema, ctx.request.body);
    ctx.body = await containerConfig.resetPassword(
      currentUser(ctx),
      containerId(ctx.params.id),
      body.password,
    );
  });

  router.post('/containers/:id/ports', requireUser, async (ctx) => {
    const { ports } = parse(updatePortsSchema, ctx.request.body);
    ctx.body = await containerConfig.updatePorts(currentUser(ctx), containerId(ctx.params.id), ports);
  });

  router.post('/containers/:id/mounts', requireUser, async (ctx) => {
    const { mounts } = parse(updateMountsSchema, ctx.request.body);
    ctx.body = await containerConfig.updateMounts(currentUser(ctx), containerId(ctx.params.id), mounts);
  });

  return router;
}

export function containerAdminRoutes(containers: ContainersService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin/containers' });
  router.use(requireAdmin);
  const admin = { admin: true };

  router.get('/', async (ctx) => {
    const q = parse(adminContainersQuery, ctx.query);
    ctx.body = await containers.listAll({
      page: q.page,
      size: q.size,
      username: q.username || undefined,
      status: q.status,
    });
  });
  router.post('/:id/start', async (ctx) => {
    const { no_gpu } = parse(startSchema, ctx.request.body);
    ctx.body = await containers.start(currentUser(ctx), containerId(ctx.params.id), {
      ...admin,
      noGpu: no_gpu,
    });
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
