// The cloud products' routes in the OpenAPI document (framework/openapi): 算力市场 and the admin's
// 服务器配置. The purchase (POST /api/cloud-products/{id}/purchase) is the containers module's.
import { z } from 'zod';
import { okReply, routeGroup } from '../../framework/openapi/describe.js';
import * as contract from './contract.js';
import { productListQuery, productSchema } from './schema.js';

export const cloudProductDocs = routeGroup(
  { name: 'cloud-products', description: '算力市场' },
  [
    {
      method: 'get',
      path: '/api/cloud-products',
      summary: '算力市场的服务器配置（可按地区、GPU 型号、数量、系统筛选）',
      auth: 'user',
      query: productListQuery,
      reply: contract.cloudProductListReply,
    },
    {
      method: 'get',
      path: '/api/cloud-products/regions',
      summary: '地区列表',
      auth: 'user',
      reply: z.array(z.string()),
    },
    {
      method: 'get',
      path: '/api/cloud-products/gpu-types',
      summary: 'GPU 型号列表',
      auth: 'user',
      reply: z.array(z.string()),
    },
    {
      method: 'get',
      path: '/api/cloud-products/:id',
      summary: '服务器配置详情',
      auth: 'user',
      reply: contract.cloudProductReply,
    },
    {
      method: 'get',
      path: '/api/cloud-products/:id/port',
      summary: '服务器上已被占用的主机端口（选择自定义端口时避开）',
      auth: 'user',
      reply: z.array(z.number()),
      errors: [503],
    },
    {
      method: 'get',
      path: '/api/admin/products',
      summary: '全部服务器配置（含已下架）',
      auth: 'admin',
      reply: contract.adminProductListReply,
    },
    {
      method: 'post',
      path: '/api/admin/products',
      summary: '新建服务器配置',
      auth: 'admin',
      body: productSchema,
      status: 201,
      reply: contract.adminProductReply,
      errors: [404, 409],
    },
    {
      method: 'put',
      path: '/api/admin/products/:id',
      summary: '修改服务器配置',
      auth: 'admin',
      body: productSchema,
      reply: contract.adminProductReply,
      errors: [409],
    },
    {
      method: 'delete',
      path: '/api/admin/products/:id',
      summary: '删除服务器配置（仍有容器时拒绝）',
      auth: 'admin',
      reply: okReply,
      errors: [409],
    },
  ],
  contract,
);
