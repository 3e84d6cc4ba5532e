// The API keys' routes in the OpenAPI document (framework/openapi).
import { okReply, routeGroup } from '../../framework/openapi/describe.js';
import * as contract from './contract.js';
import { createSchema, revealSchema } from './routes.js';

export const apiKeyDocs = routeGroup(
  { name: 'api-keys', description: 'API 密钥' },
  [
    {
      method: 'get',
      path: '/api/api-keys',
      summary: '我的 API 密钥（已打码）',
      auth: 'user',
      reply: contract.apiKeyListReply,
    },
    {
      method: 'post',
      path: '/api/api-keys',
      summary: '创建 API 密钥（完整密钥只在此次返回）',
      auth: 'user',
      body: createSchema,
      status: 201,
      reply: contract.apiKeyReply,
    },
    {
      method: 'post',
      path: '/api/api-keys/:id/reveal',
      summary: '查看完整密钥（需再次输入登录密码）',
      auth: 'user',
      body: revealSchema,
      reply: contract.revealedApiKeyReply,
      errors: [403, 429],
    },
    { method: 'delete', path: '/api/api-keys/:id', summary: '删除 API 密钥', auth: 'user', reply: okReply },
  ],
  contract,
);
