import Router from '@koa/router';
import { type AppState, currentUser, requireUser } from '../../framework/auth.js';
import { containerIdParam, idParam, parse } from '../../framework/validate.js';
import type { ImageReply, ImagesReply, SaveImageReply } from './contract.js';
import { compareQuery, saveImageSchema, updateImageSchema } from './schema.js';
import type { ImagesService } from './service.js';

/**
 * 我的镜像: saving a container (under /api/containers), and the caller's images under
 * /api/images. The list is /api/images/mine: GET /api/images is the app market's catalogue.
 */
export function imageRoutes(images: ImagesService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });
  router.use(requireUser);

  router.post('/containers/:id/save-image', async (ctx) => {
    const input = parse(saveImageSchema, ctx.request.body ?? {});
    ctx.status = 202;
    ctx.body = (await images.save(
      currentUser(ctx),
      containerIdParam(ctx.params.id),
      input,
    )) satisfies SaveImageReply;
  });

  router.get('/images/mine', async (ctx) => {
    ctx.body = (await images.list(currentUser(ctx))) satisfies ImagesReply;
  });

  router.get('/images/compare', async (ctx) => {
    const { a, b } = parse(compareQuery, ctx.query);
    ctx.body = await images.compare(currentUser(ctx), a, b);
  });

  router.get('/images/:id', async (ctx) => {
    ctx.body = await images.detail(currentUser(ctx), idParam(ctx.params.id));
  });

  router.get('/images/:id/dockerfile', async (ctx) => {
    const text = await images.dockerfile(currentUser(ctx), idParam(ctx.params.id));
    ctx.attachment('Dockerfile');
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = text;
  });

  router.patch('/images/:id', async (ctx) => {
    const input = parse(updateImageSchema, ctx.request.body ?? {});
    ctx.body = (await images.update(currentUser(ctx), idParam(ctx.params.id), input)) satisfies ImageReply;
  });

  router.delete('/images/:id', async (ctx) => {
    await images.remove(currentUser(ctx), idParam(ctx.params.id));
    ctx.body = { ok: true };
  });

  return router;
}
