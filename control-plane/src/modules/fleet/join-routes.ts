import Router from '@koa/router';
import { type AppState, requireAdmin } from '../../framework/auth.js';
import { requestOrigin } from '../../framework/proxy.js';
import { idParam, parse } from '../../framework/validate.js';
import type { JoinService } from './join.js';
import { agentJoinSchema, createJoinTokenSchema } from './schema.js';

/** 管理后台 → 节点 → 添加节点: join tokens (made, listed, revoked). */
export function joinTokenAdminRoutes(join: JoinService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin/nodes/join-tokens' });
  router.use(requireAdmin);

  router.post('/', async (ctx) => {
    const body = parse(createJoinTokenSchema, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = await join.createToken(
      {
        region: body.region,
        name: body.name,
        expiresMinutes: body.expires_minutes,
        createdBy: ctx.state.user?.id ?? null,
      },
      requestOrigin(ctx),
    );
  });

  router.get('/', async (ctx) => {
    ctx.body = await join.listTokens();
  });

  router.delete('/:id', async (ctx) => {
    await join.revokeToken(idParam(ctx.params.id));
    ctx.body = { ok: true };
  });

  return router;
}

/** The agent's join (no session: the join token is the credential). */
export function agentJoinRoutes(join: JoinService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/agent' });
  router.post('/join', async (ctx) => {
    const body = parse(agentJoinSchema, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = await join.join(body, ctx.ip);
  });
  return router;
}
