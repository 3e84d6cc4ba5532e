import Router from '@koa/router';
import { type AppState, requireAdmin } from '../../framework/auth.js';
import { idParam, parse } from '../../framework/validate.js';
import type { AdminImageReply, ImageQuota } from './contract.js';
import { imageQuotaSchema, publishImageSchema } from './schema.js';
import type { ImagesService } from './service.js';

/**
 * The admin's view of every user's saved images (GET /api/admin/images/saved: GET
 * /api/admin/images is the app market's catalogue), publishing one, and per-user quotas.
 */
export function imageAdminRoutes(images: ImagesService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin' });

  router.get('/images/saved', requireAdmin, async (ctx) => {
    ctx.body = (await images.adminList()) satisfies AdminImageReply[];
  });

  router.post('/images/:id/publish', requireAdmin, async (ctx) => {
    const input = parse(publishImageSchema, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = (await images.publish(idParam(ctx.params.id), input)) satisfies AdminImageReply;
  });

  router.put('/users/:id/image-quota', requireAdmin, async (ctx) => {
    const input = parse(imageQuotaSchema, ctx.request.body ?? {});
    ctx.body = (await images.setQuota(idParam(ctx.params.id), input)) satisfies ImageQuota;
  });

  return router;
}
