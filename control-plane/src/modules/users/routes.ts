import Router from '@koa/router';
import { type AppState, currentUser, requireUser } from '../../framework/auth.js';
import { parse } from '../../framework/validate.js';
import type { ProfileService } from './profile.js';
import {
  sendPhoneCodeSchema,
  sendVerifyCodeSchema,
  sshKeySchema,
  verifyEmailSchema,
  verifyPhoneSchema,
} from './schema.js';

/** The profile's calls (document 1, §7 Profile). */
export function profileRoutes(profile: ProfileService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });
  router.get('/user/info', requireUser, async (ctx) => {
    ctx.body = await profile.info(currentUser(ctx));
  });

  router.post('/user/send-phone-code', requireUser, async (ctx) => {
    const body = parse(sendPhoneCodeSchema, ctx.request.body);
    ctx.body = { ok: true, ...(await profile.sendPhoneCode(currentUser(ctx), body.phone, ctx.ip)) };
  });

  router.post('/user/verify-phone', requireUser, async (ctx) => {
    const body = parse(verifyPhoneSchema, ctx.request.body);
    ctx.body = await profile.verifyPhone(currentUser(ctx), body.phone, body.code);
  });

  router.post('/user/reset-phone', requireUser, async (ctx) => {
    ctx.body = await profile.resetPhone(currentUser(ctx));
  });

  router.post('/auth/send-verify-code', requireUser, async (ctx) => {
    const body = parse(sendVerifyCodeSchema, ctx.request.body);
    ctx.body = { ok: true, ...(await profile.sendEmailCode(currentUser(ctx), body.email, ctx.ip)) };
  });

  router.post('/auth/verify-email', requireUser, async (ctx) => {
    const body = parse(verifyEmailSchema, ctx.request.body);
    ctx.body = await profile.verifyEmail(currentUser(ctx), body.verify_code);
  });

  router.put('/user/ssh-key', requireUser, async (ctx) => {
    const body = parse(sshKeySchema, ctx.request.body);
    ctx.body = await profile.setSshKey(currentUser(ctx), body.ssh_key);
  });

  return router;
}
