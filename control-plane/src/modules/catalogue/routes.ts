import Router from '@koa/router';
import type { AppState } from '../../framework/auth.js';
import { idParam, parse } from '../../framework/validate.js';
import { imagesQuery } from './schema.js';
import type { CatalogueService } from './service.js';

/** The catalogue is public: the app market shows it before sign-in. */
export function catalogueRoutes(catalogue: CatalogueService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });
  router.get('/images', async (ctx) => {
    ctx.body = await catalogue.images(parse(imagesQuery, ctx.query));
  });
  router.get('/frameworks', async (ctx) => {
    ctx.body = await catalogue.frameworks();
  });
  router.get('/frameworks/:id/versions', async (ctx) => {
    ctx.body = await catalogue.versions(idParam(ctx.params.id));
  });
  router.get('/frameworks/:fid/versions/:vid', async (ctx) => {
    ctx.body = await catalogue.version(idParam(ctx.params.fid), idParam(ctx.params.vid));
  });
  return router;
}
