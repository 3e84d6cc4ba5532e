import { z } from 'zod';
import { idField } from '../../framework/fields.js';
import { MOUNT_TARGET_PATTERN } from '../containers/schema.js';

export const MSG_VOLUME_REQUIRED = '请输入存储卷名称和路径';
export const MSG_VOLUME_NAME = '存储卷名称只能包含字母、数字、下划线和横线';
const MSG_PATH = '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线';

const volumeName = (required: string) =>
  z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    .max(64, '存储卷名称不能超过64个字符')
    .regex(/^[A-Za-z0-9_-]+$/, MSG_VOLUME_NAME);

/** POST /api/storage/volumes */
export const createVolumeSchema = z.object({
  name: volumeName(MSG_VOLUME_REQUIRED),
  path: z
    .string({ required_error: MSG_VOLUME_REQUIRED, invalid_type_error: MSG_VOLUME_REQUIRED })
    .trim()
    .min(1, MSG_VOLUME_REQUIRED)
    .max(255, MSG_PATH)
    .regex(MOUNT_TARGET_PATTERN, MSG_PATH)
    .refine((p) => !p.split('/').includes('..'), MSG_PATH),
  node_id: idField('存储节点不存在').optional(),
});

/** PUT /api/storage/volumes/{id}/rename */
export const renameVolumeSchema = z.object({
  new_name: volumeName('请输入新的存储卷名称'),
});

/** GET /api/storage/volumes?node_id=: the volumes of one node ('' or absent: all). */
export const volumesQuery = z.object({
  node_id: z.preprocess(
    (v) => (v === '' ? undefined : v),
    idField('存储节点不存在', { coerce: true }).optional(),
  ),
});

/** GET /api/storage/info?refresh=1 */
export const storageInfoQuery = z.object({
  refresh: z.string().max(8, 'refresh 只能是 1').optional(),
});
