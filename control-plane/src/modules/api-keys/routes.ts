import Router from '@koa/router';
import { z } from 'zod';
import { type AppState, currentUser, requireUser } from '../../framework/auth.js';
import { idParam, parse } from '../../framework/validate.js';
import type { ApiKeysService } from './service.js';

export const createSchema = z.object({
  name: z
    .string({ required_error: '请输入密钥名称', invalid_type_error: '请输入密钥名称' })
    .trim()
    .min(1, '请输入密钥名称')
    .max(64, '密钥名称不能超过64个字符'),
});

export const revealSchema = z.object({
  password: z.string({ invalid_type_error: '请输入登录密码' }).max(256).optional(),
});

/** /api/api-keys (the spec's /api-keys/): list, create, reveal, delete the caller's keys. */
export function apiKeyRoutes(apiKeys: ApiKeysService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/api-keys' });
  router.use(requireUser);

  router.get('/', async (ctx) => {
    ctx.body = await apiKeys.list(currentUser(ctx));
  });

  router.post('/', async (ctx) => {
    const body = parse(createSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await apiKeys.create(currentUser(ctx), body.name);
  });

  // Revealing asks for the password again (POST, so it stays out of logs and URLs): none or a
  // wrong one is 403 with the reason.
  router.post('/:id/reveal', async (ctx) => {
    const body = parse(revealSchema, ctx.request.body ?? {});
    ctx.body = await apiKeys.reveal(currentUser(ctx), idParam(ctx.params.id), body.password);
  });

  router.delete('/:id', async (ctx) => {
    await apiKeys.remove(currentUser(ctx), idParam(ctx.params.id));
    ctx.body = { ok: true };
  });

  return router;
}
