// The catalogue's routes in the OpenAPI document (framework/openapi): frameworks, their versions
// and the app market's images, public and admin.
import { z } from 'zod';
import { idPath, okReply, type RouteDoc, routeGroup } from '../../framework/openapi/describe.js';
import * as contract from './contract.js';
import { frameworkSchema, imageSchema, imagesQuery, versionSchema } from './schema.js';

const admin = (route: Omit<RouteDoc, 'auth'>): RouteDoc => ({ ...route, auth: 'admin' });

export const catalogueDocs = routeGroup(
  { name: 'catalogue', description: '框架与应用镜像' },
  [
    {
      method: 'get',
      path: '/api/images',
      summary: '应用市场的镜像（可按分类、关键词筛选）',
      auth: 'none',
      query: imagesQuery,
      reply: z.array(contract.appImageReply),
    },
    {
      method: 'get',
      path: '/api/frameworks',
      summary: '框架列表',
      auth: 'none',
      reply: z.array(contract.frameworkReply),
    },
    {
      method: 'get',
      path: '/api/frameworks/:id/versions',
      summary: '框架的版本列表',
      auth: 'none',
      reply: z.array(contract.frameworkVersionReply),
    },
    {
      method: 'get',
      path: '/api/frameworks/:fid/versions/:vid',
      summary: '框架版本详情',
      auth: 'none',
      params: { fid: idPath, vid: idPath },
      reply: contract.frameworkVersionReply,
    },
    admin({
      method: 'get',
      path: '/api/admin/frameworks',
      summary: '框架及其全部版本',
      reply: contract.adminFrameworkListReply,
    }),
    admin({
      method: 'post',
      path: '/api/admin/frameworks',
      summary: '新建框架',
      body: frameworkSchema,
      status: 201,
      reply: contract.savedFrameworkReply,
      errors: [409],
    }),
    admin({
      method: 'put',
      path: '/api/admin/frameworks/:id',
      summary: '修改框架',
      body: frameworkSchema,
      reply: contract.savedFrameworkReply,
      errors: [409],
    }),
    admin({
      method: 'delete',
      path: '/api/admin/frameworks/:id',
      summary: '删除框架（仍有容器使用时拒绝）',
      reply: okReply,
      errors: [409],
    }),
    admin({
      method: 'post',
      path: '/api/admin/frameworks/:id/versions',
      summary: '新建框架版本',
      body: versionSchema,
      status: 201,
      reply: contract.frameworkVersionReply,
      errors: [409],
    }),
    admin({
      method: 'put',
      path: '/api/admin/framework-versions/:id',
      summary: '修改框架版本',
      body: versionSchema,
      reply: contract.frameworkVersionReply,
      errors: [409],
    }),
    admin({
      method: 'delete',
      path: '/api/admin/framework-versions/:id',
      summary: '删除框架版本（仍有容器使用时拒绝）',
      reply: okReply,
      errors: [409],
    }),
    admin({
      method: 'get',
      path: '/api/admin/images',
      summary: '应用市场镜像（管理）',
      reply: contract.appImageListReply,
    }),
    admin({
      method: 'post',
      path: '/api/admin/images',
      summary: '新建应用市场镜像',
      body: imageSchema,
      status: 201,
      reply: contract.savedImageReply,
      errors: [404],
    }),
    admin({
      method: 'put',
      path: '/api/admin/images/:id',
      summary: '修改应用市场镜像',
      body: imageSchema,
      reply: contract.savedImageReply,
    }),
    admin({ method: 'delete', path: '/api/admin/images/:id', summary: '删除应用市场镜像', reply: okReply }),
  ],
  contract,
);
