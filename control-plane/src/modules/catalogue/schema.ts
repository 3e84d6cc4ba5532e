import { z } from 'zod';
import { idField } from '../../framework/fields.js';
import { MSG_MOUNT_REQUIRED, mountTarget } from '../containers/schema.js';

const portNumber = z
  .number({ invalid_type_error: '端口必须是数字' })
  .int('端口必须是整数')
  .min(1, '端口为 1-65535')
  .max(65535, '端口为 1-65535');
const portName = z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, '端口名只能包含小写字母、数字、下划线和横线');

export const frameworkSchema = z.object({
  name: z
    .string({ required_error: '请输入框架名称' })
    .trim()
    .min(1, '请输入框架名称')
    .max(64, '框架名称不能超过64个字符'),
  ports: z
    .record(portName, portNumber)
    .refine((ports) => Object.keys(ports).length <= 32, '端口最多32个')
    .default({}),
});
export type FrameworkInput = z.output<typeof frameworkSchema>;

/** "rdp:3389,ssh:22": the Windows images' extra port list. */
const customPorts = z
  .string()
  .max(1024, 'custom 端口列表不能超过1024个字符')
  .regex(
    /^[a-z][a-z0-9_-]{0,31}:\d{1,5}(,[a-z][a-z0-9_-]{0,31}:\d{1,5})*$/,
    'custom 端口格式应为 名称:端口,名称:端口',
  );

/** NVIDIA driver capabilities a framework version may ask for (NVIDIA_DRIVER_CAPABILITIES). */
export const DRIVER_CAPABILITIES = [
  'compute',
  'utility',
  'video',
  'graphics',
  'display',
  'compat32',
] as const;

export const versionSchema = z.object({
  version: z
    .string({ required_error: '请输入版本' })
    .trim()
    .min(1, '请输入版本')
    .max(128, '版本不能超过128个字符'),
  image: z
    .string({ required_error: '请输入镜像地址' })
    .trim()
    .min(1, '请输入镜像地址')
    .max(255, '镜像地址不能超过255个字符')
    .regex(/^[a-z0-9][a-z0-9._/:@-]*$/, '镜像地址格式不正确'),
  cuda_version: z.string().trim().max(32, 'CUDA 版本不能超过32个字符').default(''),
  system_type: z
    .enum(['ubuntu', 'windows'], { errorMap: () => ({ message: '系统类型只能是 ubuntu 或 windows' }) })
    .default('ubuntu'),
  ports: z
    .record(
      z.string().max(32, '端口名只能包含小写字母、数字、下划线和横线'),
      z.union([portNumber, customPorts]),
    )
    .refine((ports) => Object.keys(ports).length <= 32, '端口最多32个')
    .refine(
      (ports) =>
        Object.entries(ports).every(([k, v]) =>
          k === 'custom' ? typeof v === 'string' : typeof v === 'number' && portName.safeParse(k).success,
        ),
      '端口映射格式不正确',
    )
    .default({}),
  mounts: z
    .array(
      z.object({
        source: z
          .string({ required_error: MSG_MOUNT_REQUIRED, invalid_type_error: MSG_MOUNT_REQUIRED })
          .trim()
          .min(1, MSG_MOUNT_REQUIRED)
          .max(128, '挂载点源路径不能超过128个字符'),
        // The purchase's rule: a version's mounts are what its purchases ask for.
        target: mountTarget(),
      }),
    )
    .max(5, '最多只能添加5个挂载点')
    .default([]),
  /** Beyond the compute,utility every container gets: video for ffmpeg images, graphics, ... */
  extra_driver_capabilities: z
    .array(
      z.enum(DRIVER_CAPABILITIES, {
        errorMap: () => ({
          message: '驱动能力只能是 compute、utility、video、graphics、display 或 compat32',
        }),
      }),
      { invalid_type_error: '驱动能力必须是列表' },
    )
    .transform((caps) => [...new Set(caps)])
    .default([]),
});
export type VersionInput = z.output<typeof versionSchema>;

export const IMAGE_CATEGORIES = ['all', 'pytorch', 'tensorflow', 'nlp', 'cv', 'ml'] as const;

export const imageSchema = z.object({
  name: z
    .string({ required_error: '请输入镜像名称' })
    .trim()
    .min(1, '请输入镜像名称')
    .max(128, '镜像名称不能超过128个字符'),
  icon: z.string().trim().max(255, '图标地址不能超过255个字符').default(''),
  description: z.string().trim().max(2000, '描述不能超过2000个字符').default(''),
  category: z.enum(IMAGE_CATEGORIES, { errorMap: () => ({ message: '分类不正确' }) }).default('all'),
  framework_version_id: idField('请选择框架版本'),
});
export type ImageInput = z.output<typeof imageSchema>;

export const imagesQuery = z.object({
  category: z.enum(IMAGE_CATEGORIES, { errorMap: () => ({ message: '分类不正确' }) }).optional(),
  search: z.string().trim().max(64, '搜索内容不能超过64个字符').optional(),
});
