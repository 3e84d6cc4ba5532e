import Router from '@koa/router';
import { type AppState, bearerToken, currentUser, requireUser } from '../../framework/auth.js';
import { notFound } from '../../framework/errors.js';
import { parse } from '../../framework/validate.js';
import { loginSchema, registerSchema } from '../users/schema.js';
import { toProfile, type UsersService } from '../users/service.js';
import type { AuthService } from './service.js';

export function authRoutes(auth: AuthService, users: UsersService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });

  router.post('/auth/register', async (ctx) => {
    const body = parse(registerSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await auth.register(body);
  });

  router.post('/auth/login', async (ctx) => {
    const body = parse(loginSchema, ctx.request.body);
    ctx.body = await auth.login(body);
  });

  router.post('/auth/logout', requireUser, async (ctx) => {
    const token = bearerToken(ctx);
    if (token) await auth.logout(token);
    ctx.body = { ok: true };
  });

  router.get('/user/info', requireUser, async (ctx) => {
    const user = await users.findById(currentUser(ctx).id);
    if (!user) throw notFound('用户不存在');
    ctx.body = toProfile(user);
  });

  return router;
}
