import Router from '@koa/router';
import { type AppState, requireAdmin } from '../../framework/auth.js';
import { idParam, parse } from '../../framework/validate.js';
import type { NodeListReply } from './contract.js';
import type { NodeImagesService } from './images.js';
import { addNodeSchema, maintenanceSchema, metricsQuery, warmImageSchema } from './schema.js';
import type { NodesService } from './service.js';

export function nodeAdminRoutes(nodes: NodesService, images: NodeImagesService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin/nodes' });
  router.use(requireAdmin);

  router.get('/', async (ctx) => {
    const items = await nodes.listViews();
    ctx.body = { items, total: items.length } satisfies NodeListReply;
  });

  router.post('/', async (ctx) => {
    const body = parse(addNodeSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await nodes.add({
      name: body.name,
      address: body.address,
      token: body.token,
      region: body.region,
      publicHost: body.public_host,
    });
  });

  router.get('/:id', async (ctx) => {
    ctx.body = await nodes.getView(idParam(ctx.params.id));
  });

  router.get('/:id/metrics', async (ctx) => {
    const id = idParam(ctx.params.id);
    await nodes.require(id);
    ctx.body = await nodes.gpuMetrics(id, parse(metricsQuery, ctx.query).minutes);
  });

  router.get('/:id/images', async (ctx) => {
    ctx.body = await images.view(idParam(ctx.params.id));
  });

  router.post('/:id/images/warm', async (ctx) => {
    const body = parse(warmImageSchema, ctx.request.body);
    ctx.status = 202;
    ctx.body = await images.warm(idParam(ctx.params.id), body.image);
  });

  // 维护中: not offered in the market, running containers kept, their owners told.
  router.post('/:id/maintenance', async (ctx) => {
    const body = parse(maintenanceSchema, ctx.request.body ?? {});
    ctx.body = await nodes.startMaintenance(idParam(ctx.params.id), {
      until: body.until,
      reason: body.reason,
    });
  });

  router.delete('/:id/maintenance', async (ctx) => {
    ctx.body = await nodes.endMaintenance(idParam(ctx.params.id));
  });

  router.delete('/:id', async (ctx) => {
    await nodes.remove(idParam(ctx.params.id));
    ctx.body = { ok: true };
  });

  return router;
}
