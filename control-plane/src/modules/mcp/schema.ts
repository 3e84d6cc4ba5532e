import { z } from 'zod';
import { idField } from '../../framework/fields.js';

/** The MCP dashboard's statuses (spec: MCP container status). */
export const MCP_STATUSES = ['running', 'stopped', 'creating', 'failed', 'deleted'] as const;
export type McpStatus = (typeof MCP_STATUSES)[number];

/** The images the MCP dashboard offers (spec: MCP dashboard); names of catalogue images. */
export const MCP_IMAGES = ['Ubuntu 22.04 + CUDA 12.4 Jupyter', 'Windows 10 + CUDA 12.6'] as const;

export const MSG_REQUIRED = '请填写所有必填字段';
export const MSG_NEW_PASSWORD = '请输入新密码';

/** The root password rules of the containers module (reset password), with a message for absence. */
const rootPassword = (missing: string) =>
  z
    .string({ required_error: missing, invalid_type_error: missing })
    .min(1, missing)
    .min(8, '密码至少需要8个字符')
    .max(64, '密码不能超过64个字符')
    .regex(/^[\x21-\x7e]+$/, '密码只能包含可见的英文字符');

const required = { required_error: MSG_REQUIRED, invalid_type_error: MSG_REQUIRED };

export const mcpCreateSchema = z.object({
  name: z.string(required).trim().min(1, MSG_REQUIRED).max(64, '实例名称不能超过64个字符'),
  // A catalogue image by name, or one of the user's saved images (我的镜像) by id: one of them.
  image_name: z.string(required).trim().min(1, MSG_REQUIRED).max(255, '镜像名称过长').optional(),
  image_id: idField('镜像不存在', { coerce: true }).optional(),
  product_id: idField(MSG_REQUIRED, { coerce: true }),
  gpu_count: z
    .number({ invalid_type_error: 'GPU数量必须在1-8之间' })
    .int('GPU数量必须在1-8之间')
    .min(1, 'GPU数量必须在1-8之间')
    .max(8, 'GPU数量必须在1-8之间')
    .optional()
    .default(1),
  password: rootPassword(MSG_REQUIRED),
});
export type McpCreateInput = z.output<typeof mcpCreateSchema>;

export const mcpResetPasswordSchema = z.object(
  { password: rootPassword(MSG_NEW_PASSWORD) },
  { required_error: MSG_NEW_PASSWORD, invalid_type_error: MSG_NEW_PASSWORD },
);

const statusMessage = `状态只能是 ${MCP_STATUSES.join('、')}`;

export const mcpListQuery = z.object({
  // '' and 'all' mean no filter (the dashboard's 全部).
  status: z
    .preprocess(
      (v) => (v === '' || v === 'all' ? undefined : v),
      z.enum(MCP_STATUSES, { errorMap: () => ({ message: statusMessage }) }).optional(),
    )
    .optional(),
});

export const LOG_TAIL_DEFAULT = 200;
export const LOG_TAIL_MAX = 5000;

export const mcpLogsQuery = z.object({
  tail: z.coerce
    .number({ invalid_type_error: `日志行数必须在1-${LOG_TAIL_MAX}之间` })
    .int(`日志行数必须在1-${LOG_TAIL_MAX}之间`)
    .min(1, `日志行数必须在1-${LOG_TAIL_MAX}之间`)
    .max(LOG_TAIL_MAX, `日志行数必须在1-${LOG_TAIL_MAX}之间`)
    .optional()
    .default(LOG_TAIL_DEFAULT),
});

export const mcpStartSchema = z
  .object({ no_gpu: z.boolean({ invalid_type_error: 'no_gpu 必须是布尔值' }).optional().default(false) })
  .optional()
  .default({ no_gpu: false });
