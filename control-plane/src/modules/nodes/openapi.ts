// The nodes module's routes in the OpenAPI document (framework/openapi): the admin's 节点管理.
import { okReply, type RouteDoc, routeGroup } from '../../framework/openapi/describe.js';
import * as contract from './contract.js';
import { addNodeSchema, maintenanceSchema, metricsQuery, warmImageSchema } from './schema.js';

const admin = (route: Omit<RouteDoc, 'auth'>): RouteDoc => ({ ...route, auth: 'admin' });

export const nodeDocs = routeGroup(
  { name: 'nodes', description: '节点管理' },
  [
    admin({
      method: 'get',
      path: '/api/admin/nodes',
      summary: '节点列表与健康状况',
      reply: contract.nodeListReply,
    }),
    admin({
      method: 'post',
      path: '/api/admin/nodes',
      summary: '手动添加节点（地址与节点令牌）',
      body: addNodeSchema,
      status: 201,
      reply: contract.nodeReply,
      errors: [409],
    }),
    admin({ method: 'get', path: '/api/admin/nodes/:id', summary: '节点详情', reply: contract.nodeReply }),
    admin({
      method: 'get',
      path: '/api/admin/nodes/:id/metrics',
      summary: '节点 GPU 监控（每 15 秒一个采样）',
      query: metricsQuery,
      reply: contract.gpuMetricsReply,
    }),
    admin({
      method: 'get',
      path: '/api/admin/nodes/:id/images',
      summary: '节点上的镜像与磁盘空间',
      reply: contract.nodeImagesReply,
    }),
    admin({
      method: 'post',
      path: '/api/admin/nodes/:id/images/warm',
      summary: '预热镜像（让节点提前拉取，购买时秒级启动）',
      body: warmImageSchema,
      status: 202,
      reply: contract.nodeImageReply,
      errors: [409, 503],
    }),
    admin({
      method: 'post',
      path: '/api/admin/nodes/:id/maintenance',
      summary: '进入维护：不再上架，运行中的容器保留并通知用户',
      body: maintenanceSchema,
      reply: contract.nodeReply,
    }),
    admin({
      method: 'delete',
      path: '/api/admin/nodes/:id/maintenance',
      summary: '结束维护',
      reply: contract.nodeReply,
    }),
    admin({
      method: 'delete',
      path: '/api/admin/nodes/:id',
      summary: '删除节点（仍有容器时拒绝）',
      reply: okReply,
      errors: [409],
    }),
  ],
  contract,
);
