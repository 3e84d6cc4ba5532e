import Router from '@koa/router';
import { type AppState, currentUser, requireAdmin } from '../../framework/auth.js';
import { idParam, parse } from '../../framework/validate.js';
import type { AdminUsersService } from './admin.js';
import { adminUserListQuery } from './schema.js';

export function userAdminRoutes(admin: AdminUsersService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin/users' });
  router.use(requireAdmin);

  router.get('/', async (ctx) => {
    const q = parse(adminUserListQuery, ctx.query);
    ctx.body = await admin.list({ page: q.page, size: q.size, keyword: q.keyword || undefined });
  });

  router.get('/:id', async (ctx) => {
    ctx.body = await admin.detail(idParam(ctx.params.id));
  });

  router.post('/:id/disable', async (ctx) => {
    ctx.body = await admin.setDisabled(currentUser(ctx), idParam(ctx.params.id), true);
  });

  router.post('/:id/enable', async (ctx) => {
    ctx.body = await admin.setDisabled(currentUser(ctx), idParam(ctx.params.id), false);
  });

  router.post('/:id/grant-admin', async (ctx) => {
    ctx.body = await admin.setAdmin(currentUser(ctx), idParam(ctx.params.id), true);
  });

  router.post('/:id/revoke-admin', async (ctx) => {
    ctx.body = await admin.setAdmin(currentUser(ctx), idParam(ctx.params.id), false);
  });

  return router;
}
