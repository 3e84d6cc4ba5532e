import Router from '@koa/router';
import { type AppState, currentUser, requireUser } from '../../framework/auth.js';
import { parse } from '../../framework/validate.js';
import type { DeployQuoteReply } from './contract.js';
import { deployQuoteQuery, deploySchema } from './schema.js';
import type { AppsService } from './service.js';

export function appRoutes(apps: AppsService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/apps' });
  // The server a deploy would use and so its price, shown in the drawer before the user agrees.
  router.get('/deploy-quote', requireUser, async (ctx) => {
    ctx.body = (await apps.quote(parse(deployQuoteQuery, ctx.query))) satisfies DeployQuoteReply;
  });
  router.post('/deploy', requireUser, async (ctx) => {
    const input = parse(deploySchema, ctx.request.body);
    const answer = await apps.deploy(currentUser(ctx), input, ctx.get('idempotency-key') || undefined);
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
  return router;
}
