// WeChat login and binding in the OpenAPI document (framework/openapi).
import { z } from 'zod';
import { describing, routeGroup } from '../../framework/openapi/describe.js';
import * as contract from './contract.js';
import { callbackSchema, sandboxSchema } from './routes.js';
import type { WechatService } from './service.js';

const sandboxCodeReply = describing<Awaited<ReturnType<WechatService['sandboxAuthorize']>>>()(
  z.object({ code: z.string() }),
);

export const wechatDocs = routeGroup(
  { name: 'wechat', description: '微信登录与绑定' },
  [
    {
      method: 'get',
      path: '/api/auth/wechat/login',
      summary: '微信扫码登录：取得授权地址与 state',
      auth: 'none',
      reply: contract.wechatAuthorizeReply,
      errors: [503],
    },
    {
      method: 'post',
      path: '/api/auth/wechat/callback',
      summary: '微信授权回调：登录（首次自动注册）或绑定当前账号',
      description: '绑定时 state 指向的账号必须是会话令牌的账号。',
      auth: 'optional',
      body: callbackSchema,
      reply: contract.wechatCallbackReply,
      errors: [400, 401, 403, 409, 503],
    },
    {
      method: 'post',
      path: '/api/auth/wechat/sandbox/authorize',
      summary: '沙箱微信授权（未配置微信开放平台时的模拟授权页）',
      auth: 'none',
      body: sandboxSchema,
      reply: sandboxCodeReply,
      errors: [503],
    },
    {
      method: 'get',
      path: '/api/user/bind-wechat',
      summary: '绑定微信：取得授权地址与 state',
      auth: 'user',
      reply: contract.wechatAuthorizeReply,
      errors: [503],
    },
  ],
  contract,
);
