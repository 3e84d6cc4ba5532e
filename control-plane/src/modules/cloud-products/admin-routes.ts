import Router from '@koa/router';
import { type AppState, requireAdmin } from '../../framework/auth.js';
import { idParam, parse } from '../../framework/validate.js';
import type { AdminProductListReply } from './contract.js';
import { productSchema } from './schema.js';
import type { CloudProductsService } from './service.js';

export function cloudProductAdminRoutes(products: CloudProductsService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin/products' });
  router.use(requireAdmin);
  router.get('/', async (ctx) => {
    const items = await products.adminList();
    ctx.body = { items, total: items.length } satisfies AdminProductListReply;
  });
  router.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await products.create(parse(productSchema, ctx.request.body));
  });
  router.put('/:id', async (ctx) => {
    ctx.body = await products.update(idParam(ctx.params.id), parse(productSchema, ctx.request.body));
  });
  router.delete('/:id', async (ctx) => {
    await products.remove(idParam(ctx.params.id));
    ctx.body = { ok: true };
  });
  return router;
}
