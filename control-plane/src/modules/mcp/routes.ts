import Router from '@koa/router';
import { type AppState, currentUser, requireUser } from '../../framework/auth.js';
import { parse } from '../../framework/validate.js';
import { containerId } from '../containers/routes.js';
import type { McpLogsReply } from './contract.js';
import {
  mcpCreateSchema,
  mcpListQuery,
  mcpLogsQuery,
  mcpResetPasswordSchema,
  mcpStartSchema,
} from './schema.js';
import type { McpService } from './service.js';

/**
 * `/api/mcp/containers`: the MCP dashboard's container API. A session token or an `X-API-Key`
 * (the authenticate middleware accepts it under /api/mcp/) identifies the user.
 */
export function mcpContainerRoutes(mcp: McpService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/mcp/containers' });
  router.use(requireUser);

  router.get('/', async (ctx) => {
    const { status } = parse(mcpListQuery, ctx.query);
    ctx.body = await mcp.list(currentUser(ctx), status);
  });

  router.post('/', async (ctx) => {
    const input = parse(mcpCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await mcp.create(currentUser(ctx), input);
  });

  router.get('/:id', async (ctx) => {
    ctx.body = await mcp.get(currentUser(ctx), containerId(ctx.params.id));
  });

  router.post('/:id/start', async (ctx) => {
    const { no_gpu } = parse(mcpStartSchema, ctx.request.body);
    ctx.body = await mcp.start(currentUser(ctx), containerId(ctx.params.id), no_gpu);
  });

  router.post('/:id/stop', async (ctx) => {
    ctx.body = await mcp.stop(currentUser(ctx), containerId(ctx.params.id));
  });

  router.delete('/:id', async (ctx) => {
    await mcp.destroy(currentUser(ctx), containerId(ctx.params.id));
    ctx.body = { ok: true };
  });

  router.post('/:id/reset-password', async (ctx) => {
    const { password } = parse(mcpResetPasswordSchema, ctx.request.body);
    await mcp.resetPassword(currentUser(ctx), containerId(ctx.params.id), password);
    ctx.body = { ok: true };
  });

  router.get('/:id/logs', async (ctx) => {
    const { tail } = parse(mcpLogsQuery, ctx.query);
    ctx.body = {
      logs: await mcp.logs(currentUser(ctx), containerId(ctx.params.id), tail),
    } satisfies McpLogsReply;
  });

  return router;
}
