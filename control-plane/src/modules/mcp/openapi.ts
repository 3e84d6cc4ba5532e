// The MCP API in the OpenAPI document (framework/openapi): the container API of the MCP dashboard
// and of API-key clients, and the Model Context Protocol endpoint.
import { z } from 'zod';
import { containerIdPath, okReply, type RouteDoc, routeGroup } from '../../framework/openapi/describe.js';
import * as contract from './contract.js';
import {
  mcpCreateSchema,
  mcpListQuery,
  mcpLogsQuery,
  mcpResetPasswordSchema,
  mcpStartSchema,
} from './schema.js';
import { MCP_SERVER_PATH } from './server-routes.js';

const own = (route: Omit<RouteDoc, 'auth' | 'params'>): RouteDoc => ({
  ...route,
  auth: 'user',
  params: { id: containerIdPath },
});

/** A JSON-RPC 2.0 message (MCP's Streamable HTTP transport); its methods are MCP's own. */
const jsonRpcMessage = z.object({ jsonrpc: z.literal('2.0') }).passthrough();
const jsonRpcError = z.object({
  jsonrpc: z.literal('2.0'),
  error: z.object({ code: z.number(), message: z.string() }),
  id: z.null(),
});

const notAllowed = (method: 'get' | 'delete'): RouteDoc => ({
  method,
  path: MCP_SERVER_PATH,
  summary: `MCP 服务（${method.toUpperCase()} 不支持）`,
  description:
    '无状态服务：没有服务器推送的流（GET），也没有要结束的会话（DELETE），答复 405 与 Allow: POST。',
  auth: 'none',
  status: 405,
  reply: jsonRpcError,
});

export const mcpDocs = routeGroup(
  { name: 'mcp', description: 'MCP 与容器 API' },
  [
    {
      method: 'get',
      path: '/api/mcp/containers',
      summary: 'MCP：我的容器（可按状态筛选）',
      auth: 'user',
      query: mcpListQuery,
      reply: contract.mcpContainerListReply,
    },
    {
      method: 'post',
      path: '/api/mcp/containers',
      summary: 'MCP：创建容器',
      auth: 'user',
      body: mcpCreateSchema,
      status: 201,
      reply: contract.mcpCreatedReply,
      errors: [402, 409, 503],
    },
    own({
      method: 'get',
      path: '/api/mcp/containers/:id',
      summary: 'MCP：容器详情',
      reply: contract.mcpContainerReply,
    }),
    own({
      method: 'post',
      path: '/api/mcp/containers/:id/start',
      summary: 'MCP：启动容器',
      body: mcpStartSchema,
      reply: contract.mcpContainerReply,
      errors: [402, 409, 502, 503],
    }),
    own({
      method: 'post',
      path: '/api/mcp/containers/:id/stop',
      summary: 'MCP：停止容器',
      reply: contract.mcpContainerReply,
      errors: [409, 502, 503],
    }),
    own({
      method: 'delete',
      path: '/api/mcp/containers/:id',
      summary: 'MCP：释放容器',
      reply: okReply,
      errors: [409, 502, 503],
    }),
    own({
      method: 'post',
      path: '/api/mcp/containers/:id/reset-password',
      summary: 'MCP：重置 root 密码',
      body: mcpResetPasswordSchema,
      reply: okReply,
      errors: [409, 502, 503],
    }),
    own({
      method: 'get',
      path: '/api/mcp/containers/:id/logs',
      summary: 'MCP：容器最近的日志',
      query: mcpLogsQuery,
      reply: contract.mcpLogsReply,
      errors: [409, 502, 503],
    }),
    {
      method: 'post',
      path: MCP_SERVER_PATH,
      summary: 'MCP 服务（Streamable HTTP，JSON-RPC 2.0）',
      description:
        '只接受 API 密钥：X-API-Key，或 Authorization: Bearer <API 密钥>。无状态：每个请求一个会话，答复为 JSON。工具包括列出、创建、启动、停止、删除容器与查看日志。',
      auth: 'api-key',
      body: jsonRpcMessage,
      reply: jsonRpcMessage,
      errorReply: jsonRpcError,
      errors: [400],
    },
    notAllowed('get'),
    notAllowed('delete'),
  ],
  contract,
);
