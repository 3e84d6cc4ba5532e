import Router from '@koa/router';
import { type AppState, requireUser } from '../../framework/auth.js';
import { sendKept } from '../../framework/kept-json.js';
import { idParam, parse } from '../../framework/validate.js';
import { productListQuery } from './schema.js';
import type { CloudProductsService } from './service.js';

export function cloudProductRoutes(products: CloudProductsService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/cloud-products' });
  router.use(requireUser);

  router.get('/', async (ctx) => {
    const q = parse(productListQuery, ctx.query);
    const gpuTypes = (Array.isArray(q.gpuTypes) ? q.gpuTypes : q.gpuTypes ? [q.gpuTypes] : []).filter(
      (t) => t && t !== '全选',
    );
    // { items, total } (CloudProductListReply), made once per filter and change of the list.
    const reply = await products.listReply({
      region: q.region || undefined,
      systemType: q.systemType === 'all' ? undefined : q.systemType,
      gpuTypes,
      gpuCount: q.gpuCount,
      status: q.status,
    });
    await sendKept(ctx, reply);
  });

  router.get('/regions', async (ctx) => {
    ctx.body = await products.regions();
  });

  router.get('/gpu-types', async (ctx) => {
    ctx.body = await products.gpuTypes();
  });

  router.get('/:id', async (ctx) => {
    ctx.body = await products.get(idParam(ctx.params.id));
  });

  router.get('/:id/port', async (ctx) => {
    ctx.body = await products.occupiedPorts(idParam(ctx.params.id));
  });

  return router;
}
