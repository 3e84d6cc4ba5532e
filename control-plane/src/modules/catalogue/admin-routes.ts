import Router from '@koa/router';
import { type AppState, requireAdmin } from '../../framework/auth.js';
import { idParam, parse } from '../../framework/validate.js';
import type { AdminFrameworkListReply, AppImageListReply } from './contract.js';
import { frameworkSchema, imageSchema, versionSchema } from './schema.js';
import type { CatalogueService } from './service.js';

export function catalogueAdminRoutes(catalogue: CatalogueService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin' });
  const list = <T>(items: T[]) => ({ items, total: items.length });

  router.get('/frameworks', requireAdmin, async (ctx) => {
    ctx.body = list(await catalogue.adminFrameworks()) satisfies AdminFrameworkListReply;
  });
  router.post('/frameworks', requireAdmin, async (ctx) => {
    ctx.status = 201;
    ctx.body = await catalogue.createFramework(parse(frameworkSchema, ctx.request.body));
  });
  router.put('/frameworks/:id', requireAdmin, async (ctx) => {
    ctx.body = await catalogue.updateFramework(
      idParam(ctx.params.id),
      parse(frameworkSchema, ctx.request.body),
    );
  });
  router.delete('/frameworks/:id', requireAdmin, async (ctx) => {
    await catalogue.deleteFramework(idParam(ctx.params.id));
    ctx.body = { ok: true };
  });
  router.post('/frameworks/:id/versions', requireAdmin, async (ctx) => {
    ctx.status = 201;
    ctx.body = await catalogue.createVersion(idParam(ctx.params.id), parse(versionSchema, ctx.request.body));
  });
  router.put('/framework-versions/:id', requireAdmin, async (ctx) => {
    ctx.body = await catalogue.updateVersion(idParam(ctx.params.id), parse(versionSchema, ctx.request.body));
  });
  router.delete('/framework-versions/:id', requireAdmin, async (ctx) => {
    await catalogue.deleteVersion(idParam(ctx.params.id));
    ctx.body = { ok: true };
  });

  router.get('/images', requireAdmin, async (ctx) => {
    ctx.body = list(await catalogue.images()) satisfies AppImageListReply;
  });
  router.post('/images', requireAdmin, async (ctx) => {
    ctx.status = 201;
    ctx.body = await catalogue.createImage(parse(imageSchema, ctx.request.body));
  });
  router.put('/images/:id', requireAdmin, async (ctx) => {
    ctx.body = await catalogue.updateImage(idParam(ctx.params.id), parse(imageSchema, ctx.request.body));
  });
  router.delete('/images/:id', requireAdmin, async (ctx) => {
    await catalogue.deleteImage(idParam(ctx.params.id));
    ctx.body = { ok: true };
  });
  return router;
}
