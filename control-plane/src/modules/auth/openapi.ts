// The auth module's routes in the OpenAPI document (framework/openapi): sign-in, registration,
// the forgot-password wizard and who an API key belongs to.
import { z } from 'zod';
import type { AppState } from '../../framework/auth.js';
import { describing, okReply, routeGroup } from '../../framework/openapi/describe.js';
import {
  checkUsernameSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  sendEmailCodeSchema,
  sendResetCodeSchema,
  verifyResetCodeSchema,
} from '../users/schema.js';
import * as contract from './contract.js';
import type { PasswordResetService } from './password-reset.js';

/** A verification code went out: how long it stays valid (seconds). */
export const codeSentReply = z.object({ ok: z.literal(true), expires_in: z.number() });

const resetCodeSentReply = describing<Awaited<ReturnType<PasswordResetService['sendCode']>>>()(
  z.object({ ok: z.boolean(), expires_in: z.number(), target: z.string() }),
);

const whoamiReply = describing<{ id: number; username: string; via: NonNullable<AppState['via']> }>()(
  z.object({ id: z.number(), username: z.string(), via: z.enum(['session', 'api_key']) }),
);

export const authDocs = routeGroup(
  { name: 'auth', description: '登录与注册' },
  [
    {
      method: 'post',
      path: '/api/auth/send-email-verify-code',
      summary: '发送注册邮箱验证码',
      auth: 'none',
      body: sendEmailCodeSchema,
      reply: codeSentReply,
      errors: [429, 503],
    },
    {
      method: 'post',
      path: '/api/auth/register',
      summary: '注册账号并登录',
      auth: 'none',
      body: registerSchema,
      status: 201,
      reply: contract.authReply,
      errors: [409],
    },
    {
      method: 'post',
      path: '/api/auth/login',
      summary: '用户名密码登录，得到会话令牌',
      auth: 'none',
      body: loginSchema,
      reply: contract.authReply,
      errors: [401, 403, 429],
    },
    {
      method: 'post',
      path: '/api/auth/logout',
      summary: '退出登录（吊销当前会话令牌）',
      auth: 'user',
      reply: okReply,
    },
    {
      method: 'get',
      path: '/api/mcp/whoami',
      summary: '当前凭据属于哪个用户（会话令牌或 API 密钥）',
      auth: 'user',
      reply: whoamiReply,
    },
    {
      method: 'post',
      path: '/api/auth/check-username',
      summary: '找回密码：查询账号已验证的联系方式（已打码）',
      auth: 'none',
      body: checkUsernameSchema,
      reply: contract.resetContactsReply,
      errors: [404, 429],
    },
    {
      method: 'post',
      path: '/api/auth/send-reset-code',
      summary: '找回密码：发送验证码到手机或邮箱',
      auth: 'none',
      body: sendResetCodeSchema,
      reply: resetCodeSentReply,
      errors: [403, 404, 429, 503],
    },
    {
      method: 'post',
      path: '/api/auth/verify-reset-code',
      summary: '找回密码：校验验证码',
      auth: 'none',
      body: verifyResetCodeSchema,
      reply: okReply,
      errors: [404],
    },
    {
      method: 'post',
      path: '/api/auth/reset-password',
      summary: '找回密码：设置新密码（吊销该账号的全部会话）',
      auth: 'none',
      body: resetPasswordSchema,
      reply: okReply,
      errors: [403, 404],
    },
  ],
  contract,
);
