import Router from '@koa/router';
import { type AppState, currentUser, requireUser } from '../../framework/auth.js';
import { parse } from '../../framework/validate.js';
import { deploySchema } from './schema.js';
import type { AppsService } from './service.js';

export function appRoutes(apps: AppsService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/apps' });
  router.post('/deploy', requireUser, async (ctx) => {
    const input = parse(deploySchema, ctx.request.body);
    const answer = await apps.deploy(currentUser(ctx), input, ctx.get('idempotency-key') || undefined);
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
  return router;
}
