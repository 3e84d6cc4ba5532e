// The app market's deploy in the OpenAPI document (framework/openapi).
import { routeGroup } from '../../framework/openapi/describe.js';
import { IDEMPOTENCY_KEY } from '../containers/openapi.js';
import * as contract from './contract.js';
import { deployQuoteQuery, deploySchema } from './schema.js';

export const appDocs = routeGroup(
  { name: 'apps', description: '应用市场' },
  [
    {
      method: 'get',
      path: '/api/apps/deploy-quote',
      summary: '一键部署的报价：会选用的服务器及其价格',
      auth: 'user',
      query: deployQuoteQuery,
      reply: contract.deployQuoteReply,
      errors: [404, 409],
    },
    {
      method: 'post',
      path: '/api/apps/deploy',
      summary: '一键部署应用镜像（自动选择服务器并购买容器）',
      auth: 'user',
      headers: [IDEMPOTENCY_KEY],
      body: deploySchema,
      status: 201,
      reply: contract.deployReply,
      errors: [402, 404, 409, 503],
    },
  ],
  contract,
);
