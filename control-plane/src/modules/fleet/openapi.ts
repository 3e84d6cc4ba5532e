// The fleet's routes in the OpenAPI document (framework/openapi): join tokens, the agent's join,
// the install script and bundle a GPU host downloads, and agent upgrades. join-contract.ts has the
// replies as TypeScript types only; the zod schemas here are checked against them (describing).
import { z } from 'zod';
import { describing, okReply, routeGroup, textFile } from '../../framework/openapi/describe.js';
import type { AgentJoinReply, JoinTokenCreatedReply, JoinTokenListReply } from './join-contract.js';
import { agentJoinSchema, createJoinTokenSchema } from './schema.js';
import type { UpgradeReply } from './upgrade.js';

const joinTokenCreatedReply = describing<JoinTokenCreatedReply>()(
  z.object({
    token: z.string(),
    id: z.number(),
    expires_at: z.string(),
    command: z.string(),
    script_url: z.string(),
  }),
);

const joinTokenListReply = describing<JoinTokenListReply>()(
  z.object({
    items: z.array(
      z.object({
        id: z.number(),
        name: z.string().nullable(),
        region: z.string(),
        created_at: z.string(),
        expires_at: z.string(),
        used_at: z.string().nullable(),
        node_id: z.number().nullable(),
        status: z.enum(['pending', 'used', 'expired']),
      }),
    ),
  }),
);

const agentJoinReply = describing<AgentJoinReply>()(
  z.object({
    node_id: z.number(),
    node_token: z.string(),
    certificate_pem: z.string(),
    ca_certificate_pem: z.string(),
    server_name: z.string(),
  }),
);

const upgradeReply = describing<UpgradeReply>()(
  z.object({
    from: z.object({ version: z.string().nullable(), build: z.string().nullable() }),
    to: z.object({ version: z.string(), build: z.string() }),
  }),
);

export const fleetDocs = routeGroup({ name: 'fleet', description: '节点加入与升级' }, [
  {
    method: 'post',
    path: '/api/admin/nodes/join-tokens',
    summary: '生成一次性加入令牌与一键加入命令',
    auth: 'admin',
    body: createJoinTokenSchema,
    status: 201,
    reply: joinTokenCreatedReply,
  },
  {
    method: 'get',
    path: '/api/admin/nodes/join-tokens',
    summary: '最近的加入令牌（最多 50 个）',
    auth: 'admin',
    reply: joinTokenListReply,
  },
  {
    method: 'delete',
    path: '/api/admin/nodes/join-tokens/:id',
    summary: '撤销未使用的加入令牌',
    auth: 'admin',
    reply: okReply,
    errors: [409],
  },
  {
    method: 'post',
    path: '/api/agent/join',
    summary: '节点代理用加入令牌加入，得到证书与节点令牌',
    description: '无会话：请求体中的一次性加入令牌即凭据。',
    auth: 'none',
    body: agentJoinSchema,
    status: 201,
    reply: agentJoinReply,
    errors: [401, 409],
  },
  {
    method: 'post',
    path: '/api/admin/nodes/:id/upgrade',
    summary: '在线升级节点代理（代理收到安装包后重启）',
    auth: 'admin',
    status: 202,
    reply: upgradeReply,
    errors: [409, 502, 503],
  },
  {
    method: 'get',
    path: '/install/agent.sh',
    summary: '节点代理安装脚本（默认连接本控制面）',
    auth: 'none',
    reply: textFile('text/x-shellscript; charset=utf-8', '安装脚本（curl … | sudo bash）'),
  },
  {
    method: 'get',
    path: '/install/agent-bundle.sha256',
    summary: '节点代理安装包的 SHA-256（sha256sum 格式）',
    auth: 'none',
    reply: textFile('text/plain; charset=utf-8', '`<sha256>  <文件名>`'),
    errors: [503],
  },
  {
    method: 'get',
    path: '/install/agent-bundle.tar.gz',
    summary: '节点代理安装包',
    auth: 'none',
    reply: { contentType: 'application/gzip', description: '安装包（tar.gz）', binary: true },
    errors: [503],
  },
]);
