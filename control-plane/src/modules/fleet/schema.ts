import { z } from 'zod';

const NODE_NAME = /^[A-Za-z0-9_.-]+$/;
const MINUTES = '有效期为 10-1440 分钟';

export const createJoinTokenSchema = z.object({
  region: z
    .string({ required_error: '请输入地区', invalid_type_error: '请输入地区' })
    .trim()
    .min(1, '请输入地区')
    .max(50, '地区不能超过50个字符'),
  name: z
    .string({ invalid_type_error: '节点名称必须是字符串' })
    .trim()
    .max(64, '节点名称不能超过64个字符')
    .refine((v) => v === '' || NODE_NAME.test(v), '节点名称只能包含字母、数字、下划线、点和横线')
    .optional()
    .nullable()
    .transform((v) => v || undefined),
  expires_minutes: z
    .number({ invalid_type_error: MINUTES })
    .int(MINUTES)
    .min(10, MINUTES)
    .max(1440, MINUTES)
    .default(60),
});

const HOST = /^[A-Za-z0-9_.:-]+$/;

export const agentJoinSchema = z.object({
  token: z
    .string({ required_error: '请提供加入令牌', invalid_type_error: '请提供加入令牌' })
    .trim()
    .min(1, '请提供加入令牌')
    .max(200, '加入令牌无效或已过期'),
  csr_pem: z
    .string({ required_error: '请提供证书签名请求（CSR）', invalid_type_error: '请提供证书签名请求（CSR）' })
    .min(1, '请提供证书签名请求（CSR）')
    .max(16_384, '证书签名请求（CSR）过长'),
  node_name: z
    .string({ required_error: '请提供节点名称', invalid_type_error: '请提供节点名称' })
    .trim()
    .min(1, '请提供节点名称')
    .max(255, '节点名称不能超过255个字符'),
  public_host: z
    .string({ invalid_type_error: '公网地址必须是字符串' })
    .trim()
    .max(255, '公网地址不能超过255个字符')
    .refine((v) => v === '' || HOST.test(v), '公网地址只能是主机名或 IP 地址')
    .optional()
    .nullable()
    .transform((v) => v || undefined),
  grpc_port: z
    .number({ required_error: '请提供 gRPC 端口', invalid_type_error: 'gRPC 端口为 1-65535' })
    .int('gRPC 端口为 1-65535')
    .min(1, 'gRPC 端口为 1-65535')
    .max(65535, 'gRPC 端口为 1-65535'),
  address: z
    .string({ invalid_type_error: '节点地址格式应为 主机:端口' })
    .trim()
    .max(255, '节点地址格式应为 主机:端口')
    .refine(
      (v) => v === '' || /^[A-Za-z0-9_.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(v),
      '节点地址格式应为 主机:端口',
    )
    .optional()
    .nullable()
    .transform((v) => v || undefined),
});

export type AgentJoinInput = z.output<typeof agentJoinSchema>;
