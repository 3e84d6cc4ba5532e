// The admin outbox in the OpenAPI document (framework/openapi).
import { routeGroup } from '../../framework/openapi/describe.js';
import * as contract from './contract.js';
import { outboxQuery } from './schema.js';

export const messageDocs = routeGroup(
  { name: 'messages', description: '发信记录（沙箱）' },
  [
    {
      method: 'get',
      path: '/api/admin/outbox',
      summary: '沙箱短信与邮件的发信记录（最新在前）',
      auth: 'admin',
      query: outboxQuery,
      reply: contract.outboxListReply,
    },
  ],
  contract,
);
