import { z } from 'zod';

export const addNodeSchema = z.object({
  name: z
    .string({ required_error: '请输入节点名称' })
    .trim()
    .min(1, '请输入节点名称')
    .max(64, '节点名称不能超过64个字符')
    .regex(/^[A-Za-z0-9_.-]+$/, '节点名称只能包含字母、数字、下划线、点和横线'),
  address: z
    .string({ required_error: '请输入节点 gRPC 地址' })
    .trim()
    .max(255, '节点地址格式应为 主机:端口')
    .regex(/^[A-Za-z0-9_.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/, '节点地址格式应为 主机:端口'),
  token: z
    .string({ required_error: '请输入节点令牌' })
    .min(16, '节点令牌至少需要16个字符')
    .max(255, '节点令牌不能超过255个字符'),
  region: z
    .string({ required_error: '请输入地区' })
    .trim()
    .min(1, '请输入地区')
    .max(64, '地区不能超过64个字符'),
  public_host: z
    .string()
    .trim()
    .max(255, '公网地址不能超过255个字符')
    .optional()
    .transform((v) => v || undefined),
});

export const metricsQuery = z.object({
  minutes: z.coerce
    .number({ invalid_type_error: '时间范围为 1-1440 分钟' })
    .int('时间范围为 1-1440 分钟')
    .min(1, '时间范围为 1-1440 分钟')
    .max(1440, '时间范围为 1-1440 分钟')
    .default(60),
});

export const warmImageSchema = z.object({
  image: z.string({ required_error: '请选择镜像' }).trim().min(1, '请选择镜像').max(255, '镜像名称过长'),
});

/** POST /api/admin/nodes/{id}/maintenance: the end (a future time, optional) and the reason. */
export const maintenanceSchema = z
  .object({
    until: z
      .string({ invalid_type_error: '结束时间格式不正确' })
      .datetime({ offset: true, message: '结束时间格式不正确' })
      .nullish()
      .transform((v) => (v ? new Date(v) : undefined))
      .refine((d) => d === undefined || d.getTime() > Date.now(), '结束时间须晚于当前时间'),
    reason: z
      .string({ invalid_type_error: '维护原因格式不正确' })
      .trim()
      .max(200, '维护原因不能超过200个字符')
      .nullish()
      .transform((v) => v || undefined),
  })
  .default({});
