// WeChat login and binding replies, written once: the service is typed by them and the console
// imports their types (src/api.ts). Only zod here.
import { z } from 'zod';
import { authReply } from '../auth/contract.js';

/** GET /api/auth/wechat/login and /api/user/bind-wechat: where to send the browser. */
export const wechatAuthorizeReply = z.object({
  authorize_url: z.string(),
  state: z.string(),
  sandbox: z.boolean(),
});
export type WechatAuthorizeReply = z.infer<typeof wechatAuthorizeReply>;

/** POST /api/auth/wechat/callback: signed in (the account made on first use), or bound. */
export const wechatCallbackReply = z.discriminatedUnion('purpose', [
  authReply.extend({ purpose: z.literal('login'), created: z.boolean() }),
  z.object({ purpose: z.literal('bind'), wechat_nickname: z.string() }),
]);
export type WechatCallbackReply = z.infer<typeof wechatCallbackReply>;
