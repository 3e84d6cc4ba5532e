import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AuthUser } from '../../framework/auth.js';
import { AppError } from '../../framework/errors.js';
import { parse } from '../../framework/validate.js';
import { containerId } from '../containers/routes.js';
import {
  LOG_TAIL_DEFAULT,
  LOG_TAIL_MAX,
  MCP_IMAGES,
  MCP_STATUSES,
  mcpCreateSchema,
  mcpResetPasswordSchema,
} from './schema.js';
import type { McpService } from './service.js';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const destructive = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };

const idArg = { container_id: z.string().describe('容器编号，例如 c-7k2m9x4pab') };

/**
 * The Model Context Protocol server of one API key holder: tools over the same services as the
 * REST API, so an assistant buys, runs and removes containers under the console's rules. One
 * instance serves one request (the SDK's stateless pattern).
 */
export function buildMcpServer(
  mcp: McpService,
  user: AuthUser,
  log: (message: string, err?: unknown) => void,
): McpServer {
  const server = new McpServer(
    { name: 'gpucloud', title: 'GPU 云平台', version: '0.1.0' },
    {
      instructions:
        '管理 GPU 云平台上的容器：先用 list_servers 查看服务器与价格、list_images 查看镜像（list_my_images 查看我保存的镜像），再用 create_container 创建（按小时计费，从余额扣费）。容器的 SSH 地址与端口见 list_containers 的 ssh_server、ssh_port。',
    },
  );

  const run = async (action: string, fn: () => Promise<unknown>): Promise<CallToolResult> => {
    try {
      const data = await fn();
      if (typeof data === 'string') return { content: [{ type: 'text', text: data }] };
      return {
        content: [{ type: 'text', text: JSON.stringify(data, null, 2) }],
        ...(data && typeof data === 'object' && !Array.isArray(data)
          ? { structuredContent: data as Record<string, unknown> }
          : {}),
      };
    } catch (err) {
      if (err instanceof AppError) {
        if (err.unexpected) log(`MCP tool ${action} failed (${err.status} ${err.code})`, err.cause ?? err);
        return {
          isError: true,
          content: [{ type: 'text', text: `${action}：${err.detail}（${err.code}）` }],
        };
      }
      log(`MCP tool ${action} failed`, err);
      return { isError: true, content: [{ type: 'text', text: `${action}：服务器内部错误` }] };
    }
  };

  server.registerTool(
    'list_servers',
    {
      title: '服务器与价格',
      description:
        '列出可租用的云服务器：GPU 型号、空闲 GPU 数、每卡每小时价格（元）、CPU、内存、磁盘与系统类型。product_id 用于 create_container。',
      inputSchema: {
        gpu_count: z.number().int().min(1).max(8).optional().describe('只列出空闲 GPU 至少有这么多的服务器'),
        include_offline: z.boolean().optional().describe('同时列出离线的服务器（默认只列可用的）'),
      },
      annotations: readOnly,
    },
    ({ gpu_count, include_offline }) =>
      run('获取服务器失败', async () => {
        const items = await mcp.servers({ availableOnly: !include_offline, gpuCount: gpu_count });
        return { items, total: items.length };
      }),
  );

  server.registerTool(
    'list_images',
    {
      title: '镜像',
      description: `列出创建容器可用的镜像（${MCP_IMAGES.join('、')}）。Windows 镜像只能用于 Windows 服务器。`,
      annotations: readOnly,
    },
    () =>
      run('获取镜像失败', async () => {
        const items = await mcp.images();
        return { items, total: items.length };
      }),
  );

  server.registerTool(
    'list_my_images',
    {
      title: '我的镜像',
      description:
        '列出我保存的自定义镜像（已保存完成的），用 image_id 传给 create_container 即可从它创建容器。',
      annotations: readOnly,
    },
    () =>
      run('获取我的镜像失败', async () => {
        const items = await mcp.myImages(user);
        return { items, total: items.length };
      }),
  );

  server.registerTool(
    'list_containers',
    {
      title: '我的容器',
      description: '列出我的容器：编号、名称、镜像、GPU 数、状态、SSH 地址与端口、费用。',
      inputSchema: {
        status: z.enum(MCP_STATUSES).optional().describe('只列出该状态的容器'),
      },
      annotations: readOnly,
    },
    ({ status }) => run('获取容器列表失败', () => mcp.list(user, status)),
  );

  server.registerTool(
    'get_container',
    {
      title: '容器详情',
      description: '查看一个容器的状态、SSH 地址、端口与费用。',
      inputSchema: idArg,
      annotations: readOnly,
    },
    ({ container_id }) => run('获取容器失败', () => mcp.get(user, containerId(container_id))),
  );

  server.registerTool(
    'create_container',
    {
      title: '创建容器',
      description:
        '在指定服务器上创建并启动一个按小时计费的 GPU 容器，从账户余额扣费；root 密码设为 password。',
      inputSchema: {
        name: z.string().describe('容器名称（最多 64 个字符）'),
        image_name: z
          .string()
          .optional()
          .describe(`镜像名称：${MCP_IMAGES.join(' 或 ')}（与 image_id 二选一）`),
        image_id: z
          .number()
          .int()
          .optional()
          .describe('自定义镜像编号：我的镜像中已保存完成的镜像（与 image_name 二选一）'),
        product_id: z.number().int().describe('服务器编号（list_servers 的 product_id）'),
        gpu_count: z.number().int().min(1).max(8).optional().describe('GPU 数量，1-8，默认 1'),
        password: z.string().describe('root 密码：8-64 个可见英文字符'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) => run('创建容器失败', () => mcp.create(user, parse(mcpCreateSchema, args))),
  );

  server.registerTool(
    'start_container',
    {
      title: '启动容器',
      description: '启动已停止的容器（按小时计费的容器重新分配 GPU；no_gpu 为 true 时无卡模式启动）。',
      inputSchema: { ...idArg, no_gpu: z.boolean().optional().describe('无卡模式启动') },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    ({ container_id, no_gpu }) =>
      run('启动容器失败', () => mcp.start(user, containerId(container_id), no_gpu ?? false)),
  );

  server.registerTool(
    'stop_container',
    {
      title: '停止容器',
      description: '停止运行中的容器：正在运行的程序会被终止，按小时计费的容器释放 GPU 并停止计费。',
      inputSchema: idArg,
      annotations: { ...destructive, idempotentHint: true },
    },
    ({ container_id }) => run('停止容器失败', () => mcp.stop(user, containerId(container_id))),
  );

  server.registerTool(
    'delete_container',
    {
      title: '删除容器',
      description: '删除容器及其中的全部数据，不可恢复。',
      inputSchema: idArg,
      annotations: { ...destructive, idempotentHint: true },
    },
    ({ container_id }) =>
      run('删除容器失败', async () => {
        const id = containerId(container_id);
        await mcp.destroy(user, id);
        return { ok: true, container_id: id };
      }),
  );

  server.registerTool(
    'reset_container_password',
    {
      title: '重置密码',
      description: '重置运行中容器的 root 密码（旧密码失效）。',
      inputSchema: { ...idArg, password: z.string().describe('新的 root 密码：8-64 个可见英文字符') },
      annotations: { ...destructive, idempotentHint: true },
    },
    ({ container_id, password }) =>
      run('重置密码失败', async () => {
        const id = containerId(container_id);
        await mcp.resetPassword(user, id, parse(mcpResetPasswordSchema, { password }).password);
        return { ok: true, container_id: id };
      }),
  );

  server.registerTool(
    'get_container_logs',
    {
      title: '容器日志',
      description: '读取容器最近的日志（标准输出与标准错误）。',
      inputSchema: {
        ...idArg,
        tail: z
          .number()
          .int()
          .min(1)
          .max(LOG_TAIL_MAX)
          .optional()
          .describe(`最后多少行，默认 ${LOG_TAIL_DEFAULT}`),
      },
      annotations: readOnly,
    },
    ({ container_id, tail }) =>
      run('获取日志失败', async () => {
        const logs = await mcp.logs(user, containerId(container_id), tail ?? LOG_TAIL_DEFAULT);
        return logs || '暂无日志';
      }),
  );

  server.registerTool(
    'get_balance',
    {
      title: '账户余额',
      description: '查看账户余额与余额告警阈值（元）。',
      annotations: readOnly,
    },
    () => run('获取余额信息失败', () => mcp.balance(user)),
  );

  return server;
}
