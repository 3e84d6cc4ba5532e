import Router from '@koa/router';
import { z } from 'zod';
import { type AppState, currentUser, requireUser } from '../../framework/auth.js';
import { requestOrigin } from '../../framework/proxy.js';
import { parse } from '../../framework/validate.js';
import type { WechatService } from './service.js';

export const callbackSchema = z.object({
  code: z.string({ required_error: '缺少微信授权码' }).trim().min(1, '缺少微信授权码').max(512),
  state: z.string({ required_error: '缺少登录状态' }).trim().min(1, '缺少登录状态').max(256),
});

export const sandboxSchema = z.object({
  nickname: z
    .string({ required_error: '请输入微信昵称' })
    .trim()
    .min(1, '请输入微信昵称')
    .max(32, '微信昵称不能超过32个字符'),
  state: z.string({ required_error: '缺少登录状态' }).trim().min(1, '缺少登录状态').max(256),
});

export function wechatRoutes(wechat: WechatService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });

  router.get('/auth/wechat/login', async (ctx) => {
    ctx.body = wechat.authorizeUrl('login', requestOrigin(ctx));
  });

  // The console's /wechat-callback page posts WeChat's code and state here. For a binding the
  // bearer token must belong to the account the state names.
  router.post('/auth/wechat/callback', async (ctx) => {
    const body = parse(callbackSchema, ctx.request.body);
    ctx.body = await wechat.complete({ code: body.code, state: body.state, actor: ctx.state.user });
  });

  router.post('/auth/wechat/sandbox/authorize', async (ctx) => {
    const body = parse(sandboxSchema, ctx.request.body);
    ctx.body = await wechat.sandboxAuthorize(body);
  });

  router.get('/user/bind-wechat', requireUser, async (ctx) => {
    ctx.body = wechat.authorizeUrl('bind', requestOrigin(ctx), currentUser(ctx));
  });

  return router;
}
