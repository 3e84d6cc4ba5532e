// The images module's request schemas (保存镜像, rename, compare, the admin's publish and quota).
// Only zod here: the console type-checks the schema files (src/api.ts).
import { z } from 'zod';
import { idField } from '../../framework/fields.js';

export const MSG_NAME_REQUIRED = '请输入镜像名称';
export const MSG_NAME = '镜像名称只能包含小写字母、数字、点、下划线和短横线，且以字母或数字开头';
export const MSG_NAME_LENGTH = '镜像名称不能超过32个字符';
export const MSG_TAG = '标签只能包含字母、数字、点、下划线和短横线，且不能以点或短横线开头，最多64个字符';
export const MSG_DESCRIPTION = '描述不能超过200个字符';
export const MSG_IMAGE_ID = '镜像不存在';

const name = z
  .string({ required_error: MSG_NAME_REQUIRED, invalid_type_error: MSG_NAME_REQUIRED })
  .trim()
  .min(1, MSG_NAME_REQUIRED)
  .max(32, MSG_NAME_LENGTH)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, MSG_NAME);

const tag = z
  .string({ invalid_type_error: MSG_TAG })
  .trim()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/, MSG_TAG);

const description = z.string({ invalid_type_error: MSG_DESCRIPTION }).trim().max(200, MSG_DESCRIPTION);

/** POST /api/containers/{id}/save-image */
export const saveImageSchema = z.object({
  name,
  tag: z.preprocess((v) => (v === '' || v === null ? undefined : v), tag.optional().default('latest')),
  description: z.preprocess((v) => (v === null ? undefined : v), description.optional().default('')),
});
export type SaveImageInput = z.output<typeof saveImageSchema>;

/** PATCH /api/images/{id}: any of name, tag, description. */
export const updateImageSchema = z.object({
  name: name.optional(),
  tag: tag.optional(),
  description: description.optional(),
});
export type UpdateImageInput = z.output<typeof updateImageSchema>;

/** GET /api/images/compare?a=&b= */
export const compareQuery = z.object({
  a: idField('请选择要对比的两个镜像', { coerce: true }),
  b: idField('请选择要对比的两个镜像', { coerce: true }),
});

/** POST /api/admin/images/{id}/publish: a framework (id or name; a new name makes one) and a version. */
export const publishImageSchema = z.object({
  framework: z.union(
    [
      idField('请选择框架'),
      z
        .string({ invalid_type_error: '请选择框架' })
        .trim()
        .min(1, '请选择框架')
        .max(64, '框架名称不能超过64个字符'),
    ],
    { errorMap: () => ({ message: '请选择框架' }) },
  ),
  version: z
    .string({ required_error: '请输入版本', invalid_type_error: '请输入版本' })
    .trim()
    .min(1, '请输入版本')
    .max(128, '版本不能超过128个字符'),
});
export type PublishImageInput = z.output<typeof publishImageSchema>;

const MSG_MAX_COUNT = '镜像数量上限为 0-1000';
const MSG_MAX_GB = '镜像存储上限为 0-100000 GB';

/** PUT /api/admin/users/{id}/image-quota */
export const imageQuotaSchema = z.object({
  max_count: z
    .number({ required_error: MSG_MAX_COUNT, invalid_type_error: MSG_MAX_COUNT })
    .int(MSG_MAX_COUNT)
    .min(0, MSG_MAX_COUNT)
    .max(1000, MSG_MAX_COUNT),
  max_gb: z
    .number({ required_error: MSG_MAX_GB, invalid_type_error: MSG_MAX_GB })
    .min(0, MSG_MAX_GB)
    .max(100_000, MSG_MAX_GB),
});
