// The images module's routes in the OpenAPI document (framework/openapi): 我的镜像 (saving a
// container, listing, comparing, the Dockerfile), the admin's view and quotas, and the registry's
// token server.
import { z } from 'zod';
import {
  containerIdPath,
  describing,
  okReply,
  type RouteDoc,
  routeGroup,
  textFile,
} from '../../framework/openapi/describe.js';
import * as contract from './contract.js';
import type { TokenAnswer } from './registry-service.js';
import {
  compareQuery,
  imageQuotaSchema,
  publishImageSchema,
  saveImageSchema,
  updateImageSchema,
} from './schema.js';

const tokenReply = describing<TokenAnswer>()(
  z.object({ token: z.string(), access_token: z.string(), expires_in: z.number(), issued_at: z.string() }),
);

const admin = (route: Omit<RouteDoc, 'auth'>): RouteDoc => ({ ...route, auth: 'admin' });

export const imageDocs = routeGroup(
  { name: 'images', description: '我的镜像' },
  [
    {
      method: 'post',
      path: '/api/containers/:id/save-image',
      summary: '把容器保存为镜像（后台保存，进度见镜像详情）',
      auth: 'user',
      params: { id: containerIdPath },
      body: saveImageSchema,
      status: 202,
      reply: contract.saveImageReply,
      errors: [403, 409, 503],
    },
    {
      method: 'get',
      path: '/api/images/mine',
      summary: '我的镜像与配额',
      auth: 'user',
      reply: contract.imagesReply,
    },
    {
      method: 'get',
      path: '/api/images/compare',
      summary: '对比两个镜像（系统、Python、CUDA、软件包的差异）',
      auth: 'user',
      query: compareQuery,
      reply: contract.imageCompareReply,
      errors: [404, 409],
    },
    {
      method: 'get',
      path: '/api/images/:id',
      summary: '镜像详情（含镜像内容）',
      auth: 'user',
      reply: contract.imageDetailReply,
    },
    {
      method: 'get',
      path: '/api/images/:id/dockerfile',
      summary: '下载可复现该镜像的 Dockerfile',
      auth: 'user',
      reply: textFile('text/plain; charset=utf-8', 'Dockerfile（作为附件下载）'),
      errors: [409],
    },
    {
      method: 'patch',
      path: '/api/images/:id',
      summary: '修改镜像名称、标签或描述',
      auth: 'user',
      body: updateImageSchema,
      reply: contract.imageReply,
      errors: [409],
    },
    {
      method: 'delete',
      path: '/api/images/:id',
      summary: '删除镜像（保存中或被容器使用时拒绝）',
      auth: 'user',
      reply: okReply,
      errors: [409, 503],
    },
    admin({
      method: 'get',
      path: '/api/admin/images/saved',
      summary: '全部用户保存的镜像',
      reply: z.array(contract.adminImageReply),
    }),
    admin({
      method: 'post',
      path: '/api/admin/images/:id/publish',
      summary: '把用户镜像发布为框架版本',
      body: publishImageSchema,
      status: 201,
      reply: contract.adminImageReply,
      errors: [409],
    }),
    admin({
      method: 'put',
      path: '/api/admin/users/:id/image-quota',
      summary: '设置用户的镜像配额',
      body: imageQuotaSchema,
      reply: contract.imageQuota,
    }),
    {
      method: 'get',
      path: '/api/registry/token',
      summary: '镜像仓库的令牌服务（Docker 令牌认证协议）',
      description:
        '由 Docker 引擎调用：以 Basic 认证携带节点代理得到的授权，查询参数 service 与 scope（可多个）。',
      auth: 'registry',
      reply: tokenReply,
      errors: [400, 503],
    },
  ],
  contract,
);
