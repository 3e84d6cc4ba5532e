// The storage module's routes in the OpenAPI document (framework/openapi): 存储管理.
import { z } from 'zod';
import { routeGroup } from '../../framework/openapi/describe.js';
import * as contract from './contract.js';
import { createVolumeSchema, renameVolumeSchema, storageInfoQuery, volumesQuery } from './schema.js';

export const storageDocs = routeGroup(
  { name: 'storage', description: '存储卷' },
  [
    {
      method: 'get',
      path: '/api/storage/info',
      summary: '存储用量、配额与全部存储卷',
      auth: 'user',
      query: storageInfoQuery,
      reply: contract.storageInfoReply,
    },
    {
      method: 'get',
      path: '/api/storage/nodes',
      summary: '可以创建存储卷的节点',
      auth: 'user',
      reply: z.array(contract.storageNodeReply),
    },
    {
      method: 'get',
      path: '/api/storage/volumes',
      summary: '存储卷列表（购买与挂载时选择，可按节点筛选）',
      auth: 'user',
      query: volumesQuery,
      reply: z.array(contract.volumeSummaryReply),
    },
    {
      method: 'post',
      path: '/api/storage/volumes',
      summary: '创建存储卷',
      auth: 'user',
      body: createVolumeSchema,
      status: 201,
      reply: contract.volumeReply,
      errors: [403, 404, 409, 503],
    },
    {
      method: 'put',
      path: '/api/storage/volumes/:id/rename',
      summary: '重命名存储卷',
      auth: 'user',
      body: renameVolumeSchema,
      reply: contract.volumeReply,
      errors: [409],
    },
    {
      method: 'delete',
      path: '/api/storage/volumes/:id',
      summary: '删除存储卷（后台删除，答复删除中的存储卷；被容器使用时拒绝）',
      auth: 'user',
      status: 202,
      reply: contract.volumeReply,
      errors: [409, 503],
    },
  ],
  contract,
);
