// The users module's routes in the OpenAPI document (framework/openapi): the profile (个人中心)
// and the admin's 用户管理.

import { type RouteDoc, routeGroup } from '../../framework/openapi/describe.js';
import { codeSentReply } from '../auth/openapi.js';
import * as contract from './contract.js';
import {
  adminUserListQuery,
  sendPhoneCodeSchema,
  sendVerifyCodeSchema,
  sshKeySchema,
  verifyEmailSchema,
  verifyPhoneSchema,
} from './schema.js';

const adminUserCommand = (path: string, summary: string): RouteDoc => ({
  method: 'post',
  path: `/api/admin/users/:id/${path}`,
  summary,
  auth: 'admin',
  reply: contract.adminUserReply,
  errors: [409],
});

export const userDocs = routeGroup(
  { name: 'users', description: '个人中心与用户管理' },
  [
    {
      method: 'get',
      path: '/api/user/info',
      summary: '当前用户的资料',
      auth: 'user',
      reply: contract.profileReply,
    },
    {
      method: 'post',
      path: '/api/user/send-phone-code',
      summary: '发送手机验证码（绑定手机）',
      auth: 'user',
      body: sendPhoneCodeSchema,
      reply: codeSentReply,
      errors: [409, 429, 503],
    },
    {
      method: 'post',
      path: '/api/user/verify-phone',
      summary: '校验手机验证码并绑定手机',
      auth: 'user',
      body: verifyPhoneSchema,
      reply: contract.profileReply,
      errors: [409],
    },
    {
      method: 'post',
      path: '/api/user/reset-phone',
      summary: '解除手机绑定',
      auth: 'user',
      reply: contract.profileReply,
    },
    {
      method: 'post',
      path: '/api/auth/send-verify-code',
      summary: '发送邮箱验证码（验证邮箱）',
      auth: 'user',
      body: sendVerifyCodeSchema,
      reply: codeSentReply,
      errors: [409, 429, 503],
    },
    {
      method: 'post',
      path: '/api/auth/verify-email',
      summary: '校验邮箱验证码',
      auth: 'user',
      body: verifyEmailSchema,
      reply: contract.profileReply,
    },
    {
      method: 'put',
      path: '/api/user/ssh-key',
      summary: '设置 SSH 公钥（新建容器时写入 authorized_keys）',
      auth: 'user',
      body: sshKeySchema,
      reply: contract.profileReply,
    },
    {
      method: 'get',
      path: '/api/admin/users',
      summary: '用户列表（分页、关键词）',
      auth: 'admin',
      query: adminUserListQuery,
      reply: contract.adminUserListReply,
    },
    {
      method: 'get',
      path: '/api/admin/users/:id',
      summary: '用户详情：资料、容器与最近的订单',
      auth: 'admin',
      reply: contract.adminUserDetailReply,
    },
    adminUserCommand('disable', '禁用用户（吊销其全部会话）'),
    adminUserCommand('enable', '启用用户'),
    adminUserCommand('grant-admin', '授予管理员权限'),
    adminUserCommand('revoke-admin', '撤销管理员权限'),
  ],
  contract,
);
