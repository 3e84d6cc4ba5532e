import Router from '@koa/router';
import { type AppState, currentUser, requireUser } from '../../framework/auth.js';
import { idParam, parse } from '../../framework/validate.js';
import { createVolumeSchema, renameVolumeSchema, storageInfoQuery, volumesQuery } from './schema.js';
import type { StorageService } from './service.js';

/** /api/storage: the caller's volumes, their usage against the quota, create, rename, delete. */
export function storageRoutes(storage: StorageService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/storage' });
  router.use(requireUser);

  router.get('/info', async (ctx) => {
    const { refresh } = parse(storageInfoQuery, ctx.query);
    ctx.body = await storage.info(currentUser(ctx), refresh === '1');
  });

  router.get('/nodes', async (ctx) => {
    ctx.body = await storage.nodes();
  });

  router.get('/volumes', async (ctx) => {
    const { node_id } = parse(volumesQuery, ctx.query);
    ctx.body = await storage.list(currentUser(ctx), node_id);
  });

  router.post('/volumes', async (ctx) => {
    const body = parse(createVolumeSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await storage.create(currentUser(ctx), body);
  });

  router.put('/volumes/:id/rename', async (ctx) => {
    const body = parse(renameVolumeSchema, ctx.request.body);
    ctx.body = await storage.rename(currentUser(ctx), idParam(ctx.params.id), body.new_name);
  });

  // 202: the volume as it is now (删除中); the node deletes it in the background.
  router.delete('/volumes/:id', async (ctx) => {
    ctx.body = await storage.remove(currentUser(ctx), idParam(ctx.params.id));
    ctx.status = 202;
  });

  return router;
}
