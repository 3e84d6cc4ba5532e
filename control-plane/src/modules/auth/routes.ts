import Router from '@koa/router';
import { type AppState, bearerToken, currentUser, requireUser } from '../../framework/auth.js';
import { parse } from '../../framework/validate.js';
import { loginSchema, registerSchema, sendEmailCodeSchema } from '../users/schema.js';
import type { AuthService } from './service.js';

export function authRoutes(auth: AuthService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });

  router.post('/auth/send-email-verify-code', async (ctx) => {
    const body = parse(sendEmailCodeSchema, ctx.request.body);
    ctx.body = { ok: true, ...(await auth.sendRegisterCode(body.email, ctx.ip)) };
  });

  router.post('/auth/register', async (ctx) => {
    const body = parse(registerSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await auth.register({
      username: body.username,
      password: body.password,
      email: body.email,
      emailVerifyCode: body.email_verify_code,
    });
  });

  router.post('/auth/login', async (ctx) => {
    const body = parse(loginSchema, ctx.request.body);
    ctx.body = await auth.login({ ...body, ip: ctx.ip });
  });

  router.post('/auth/logout', requireUser, async (ctx) => {
    const token = bearerToken(ctx);
    if (token) await auth.logout(token, currentUser(ctx).id);
    ctx.body = { ok: true };
  });

  // The smallest /api/mcp/* route: who the bearer token or X-API-Key belongs to.
  router.get('/mcp/whoami', requireUser, async (ctx) => {
    const user = currentUser(ctx);
    ctx.body = { id: user.id, username: user.username, via: ctx.state.via ?? 'session' };
  });

  return router;
}
