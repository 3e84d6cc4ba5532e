import Router from '@koa/router';
import type { AppState } from '../../framework/auth.js';
import { parse } from '../../framework/validate.js';
import {
  checkUsernameSchema,
  resetPasswordSchema,
  sendResetCodeSchema,
  verifyResetCodeSchema,
} from '../users/schema.js';
import type { PasswordResetService } from './password-reset.js';

/** The forgot-password wizard's calls (document 2, §7). */
export function passwordResetRoutes(reset: PasswordResetService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/auth' });

  router.post('/check-username', async (ctx) => {
    const body = parse(checkUsernameSchema, ctx.request.body);
    ctx.body = await reset.checkUsername(body.username, ctx.ip);
  });

  router.post('/send-reset-code', async (ctx) => {
    const body = parse(sendResetCodeSchema, ctx.request.body);
    ctx.body = await reset.sendCode(body.username, body.method, ctx.ip);
  });

  router.post('/verify-reset-code', async (ctx) => {
    const body = parse(verifyResetCodeSchema, ctx.request.body);
    ctx.body = await reset.verifyCode(body.username, body.code);
  });

  router.post('/reset-password', async (ctx) => {
    const body = parse(resetPasswordSchema, ctx.request.body);
    ctx.body = await reset.reset(body.username, body.code, body.password);
  });

  return router;
}
