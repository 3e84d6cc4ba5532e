import { z } from 'zod';
import { idField, pageField, pageSizeField } from '../../framework/fields.js';
import { BILLING_TYPE_NAMES } from '../pricing/pricing.js';

export const MOUNT_TARGET_PATTERN = /^\/[A-Za-z0-9_/.-]*$/;
export const MAX_MOUNTS = 5;
export const MAX_CUSTOM_PORTS = 5;
export const PURCHASE_PORT_MIN = 10000;
export const PURCHASE_PORT_MAX = 65535;

export const MSG_MOUNT_TARGET = '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线';
export const MSG_MOUNT_REQUIRED = '请完善所有挂载点配置';
export const MOUNT_TARGET_MAX_LENGTH = 255;

/**
 * Targets a volume may not cover: the system's own folders (the node agent refuses these too),
 * the kernel's interfaces, our toolbox and staged access (/.gpucloud) and root's SSH keys.
 */
const RESERVED_MOUNT_TARGETS = ['/', '/etc', '/bin', '/sbin', '/usr', '/lib', '/lib64', '/run', '/var'];
const RESERVED_MOUNT_TREES = ['/proc', '/sys', '/dev', '/.gpucloud', '/root/.ssh'];

/**
 * The one rule for a mount target, at purchase and on an existing container: what is wrong with
 * it (the message), or undefined. A trailing slash is harmless; an empty, `.` or `..` segment is
 * refused (the node would refuse a path that does not normalise to itself).
 */
export function mountTargetProblem(target: string): string | undefined {
  if (target.length > MOUNT_TARGET_MAX_LENGTH || !MOUNT_TARGET_PATTERN.test(target)) return MSG_MOUNT_TARGET;
  const clean = target.replace(/\/+$/, '') || '/';
  if (
    clean !== '/' &&
    clean
      .split('/')
      .slice(1)
      .some((s) => s === '' || s === '.' || s === '..')
  ) {
    return MSG_MOUNT_TARGET;
  }
  if (
    RESERVED_MOUNT_TARGETS.includes(clean) ||
    RESERVED_MOUNT_TREES.some((tree) => clean === tree || clean.startsWith(`${tree}/`))
  ) {
    return `不能挂载到系统目录 ${clean}`;
  }
  return undefined;
}

/** A mount target (after the caller's own checks): trimmed, then mountTargetProblem. */
export const mountTarget = () =>
  z
    .string({ required_error: MSG_MOUNT_REQUIRED, invalid_type_error: MSG_MOUNT_REQUIRED })
    .trim()
    .min(1, MSG_MOUNT_REQUIRED)
    .superRefine((target, ctx) => {
      const problem = mountTargetProblem(target);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    });

const mountSchema = z.object({
  source: z
    .string({ required_error: MSG_MOUNT_REQUIRED, invalid_type_error: MSG_MOUNT_REQUIRED })
    .trim()
    .min(1, MSG_MOUNT_REQUIRED)
    .max(128, '挂载点源路径不能超过128个字符'),
  target: mountTarget(),
});

/** An optional field a form may send as '' or null when it has nothing there. */
const absentWhenEmpty = <T extends z.ZodTypeAny>(field: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), field);

/** The largest total a purchase may name, in yuan (exact in fen as a double). */
export const MAX_PURCHASE_YUAN = 1_000_000_000;

export const purchaseSchema = z.object({
  instanceName: z.string().trim().max(64, '实例名称不能超过64个字符').optional().default(''),
  gpuCount: z
    .number({ required_error: '请选择GPU数量', invalid_type_error: '请选择GPU数量' })
    .int('请选择GPU数量')
    .min(1, '请选择GPU数量')
    .max(8, 'GPU数量不能超过8'),
  needExpand: z.boolean().optional().default(false),
  imageType: z
    .enum(['public', 'custom'], { errorMap: () => ({ message: '镜像类型只能是 public 或 custom' }) })
    .optional()
    .default('public'),
  // A public image names its framework and version; a custom one (我的镜像) its image id. Which
  // of them is required is the purchase's to say (purchase-service.ts): the schema stays an
  // object other schemas pick fields from.
  framework: absentWhenEmpty(idField('请选择框架', { coerce: true }).optional()),
  frameworkVersion: absentWhenEmpty(idField('请选择版本', { coerce: true }).optional()),
  customImageId: absentWhenEmpty(idField('请选择镜像', { coerce: true }).optional()),
  frame_ports: z.unknown().optional(),
  custom_ports: z
    .array(
      z
        .number({ invalid_type_error: '端口号必须在10000-65535之间' })
        .int('端口号必须在10000-65535之间')
        .min(PURCHASE_PORT_MIN, '端口号必须在10000-65535之间')
        .max(PURCHASE_PORT_MAX, '端口号必须在10000-65535之间'),
    )
    .max(MAX_CUSTOM_PORTS, '最多只能添加5个自定义端口')
    .optional()
    .default([])
    .refine((ports) => new Set(ports).size === ports.length, '该端口已添加'),
  agreeTerms: z.literal(true, { errorMap: () => ({ message: '请同意服务条款' }) }),
  mounts: z.array(mountSchema).max(MAX_MOUNTS, '最多只能添加5个挂载点').optional().default([]),
  billing_type: z.enum(BILLING_TYPE_NAMES, { errorMap: () => ({ message: '请选择计费方式' }) }),
  duration: z
    .number({ required_error: '请输入使用时长', invalid_type_error: '请输入使用时长' })
    .int('使用时长必须是整数')
    .min(1, '时长必须大于0')
    // The service words the limit of each billing type (hourly 720 … yearly 3); this only keeps
    // absurd numbers out of the arithmetic.
    .max(1_000_000, '使用时长不正确')
    .optional()
    .default(1),
  env: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, '环境变量名只能包含字母、数字和下划线，且不能以数字开头'),
      z.string().max(4096, '环境变量值不能超过4096个字符'),
    )
    .refine((env) => Object.keys(env).length <= 32, '环境变量最多32个')
    .refine(
      // The agent sets the NVIDIA_* variables that steer the toolkit; an image's own
      // NVIDIA_REQUIRE_* (CUDA/driver requirement) is the user's to give.
      (env) => !Object.keys(env).some((k) => k.startsWith('NVIDIA_') && !k.startsWith('NVIDIA_REQUIRE_')),
      '不能设置 NVIDIA_ 开头的环境变量（NVIDIA_REQUIRE_* 除外）',
    )
    .optional()
    .default({}),
  total_price: z
    .number({ required_error: '价格不能为空', invalid_type_error: '价格不能为空' })
    .nonnegative('价格已变化，请刷新后重试')
    // Far above any price the catalogue can make (finite: 1e309 in JSON is Infinity).
    .max(MAX_PURCHASE_YUAN, '价格已变化，请刷新后重试'),
});

export type PurchaseInput = z.output<typeof purchaseSchema>;

export const EXISTING_PORT_MIN = 10000;
export const EXISTING_PORT_MAX = 20000;

/** POST /api/containers/{id}/ports: the custom ports of an existing container (spec §5). */
export const updatePortsSchema = z.object({
  ports: z
    .array(
      z
        .number({ invalid_type_error: '请输入有效的端口号' })
        .int('请输入有效的端口号')
        .min(EXISTING_PORT_MIN, '端口号必须在10000-20000之间')
        .max(EXISTING_PORT_MAX, '端口号必须在10000-20000之间'),
      { invalid_type_error: '请输入有效的端口号' },
    )
    .max(MAX_CUSTOM_PORTS, '最多只能添加5个自定义端口')
    .refine((ports) => new Set(ports).size === ports.length, '该端口已添加'),
});

/**
 * POST /api/containers/{id}/mounts: mounts of an existing container, applied at the next start.
 * The target follows the purchase's rule (mountTargetProblem); the dialog's own words (spec:
 * existing container mount dialog) come first.
 */
export const updateMountsSchema = z.object({
  mounts: z
    .array(
      z.object({
        source: z
          .string({ required_error: MSG_MOUNT_REQUIRED, invalid_type_error: MSG_MOUNT_REQUIRED })
          .trim()
          .min(1, MSG_MOUNT_REQUIRED)
          .max(128, '挂载点源路径不能超过128个字符')
          .regex(/^[A-Za-z0-9]+$/, '挂载点源路径只能包含字母和数字'),
        target: z
          .string({ required_error: MSG_MOUNT_REQUIRED, invalid_type_error: MSG_MOUNT_REQUIRED })
          .trim()
          .min(1, MSG_MOUNT_REQUIRED)
          .startsWith('/', '挂载点目标路径必须以 / 开头')
          .pipe(mountTarget()),
      }),
      { invalid_type_error: '挂载点配置格式不正确' },
    )
    .max(MAX_MOUNTS, '最多只能添加5个挂载点'),
});

export const resetPasswordSchema = z
  .object({
    password: z
      .string()
      .min(8, '密码至少需要8个字符')
      .max(64, '密码不能超过64个字符')
      .regex(/^[\x21-\x7e]+$/, '密码只能包含可见的英文字符')
      .optional(),
  })
  .optional()
  .default({});

export const startSchema = z
  .object({ no_gpu: z.boolean({ invalid_type_error: 'no_gpu 必须是布尔值' }).optional().default(false) })
  .optional()
  .default({ no_gpu: false });

/** The longest a status request waits for a change (GET /api/containers/{id}/status?wait=). */
export const MAX_STATUS_WAIT_SECONDS = 30;

/**
 * GET /api/containers/{id}/status: with `while` (the status the caller shows) and `wait`
 * (seconds), the answer comes once the status differs, or the pull percentage differs from
 * `progress` where given, or the time is up.
 */
export const statusQuery = z.object({
  while: z.string().trim().min(1, '状态不正确').max(32, '状态不正确').optional(),
  progress: z.coerce
    .number({ invalid_type_error: '进度为 0-100' })
    .int('进度为 0-100')
    .min(0, '进度为 0-100')
    .max(100, '进度为 0-100')
    .optional(),
  wait: z.coerce
    .number({ invalid_type_error: `等待时间为 0-${MAX_STATUS_WAIT_SECONDS} 秒` })
    .min(0, `等待时间为 0-${MAX_STATUS_WAIT_SECONDS} 秒`)
    .max(MAX_STATUS_WAIT_SECONDS, `等待时间为 0-${MAX_STATUS_WAIT_SECONDS} 秒`)
    .default(0),
});

/** GET /api/admin/containers: every user's containers, by page. */
export const adminContainersQuery = z.object({
  page: pageField(),
  size: pageSizeField([10, 20, 50, 100], 20),
  username: z.string().trim().max(64, '用户名不能超过64个字符').optional(),
  status: z
    .enum(
      ['running', 'starting', 'pulling', 'stopped', 'error', 'failed', 'not_found', 'deleted', 'creating'],
      { errorMap: () => ({ message: '状态不正确' }) },
    )
    .optional(),
});

/** The ranges 监控 offers: 最近 1 小时 (per minute) and 最近 24 小时 (per 5 minutes). */
export const METRICS_RANGES = ['1h', '24h'] as const;
export type MetricsRange = (typeof METRICS_RANGES)[number];
const MSG_METRICS_RANGE = '时间范围只能是 1h 或 24h';

/**
 * GET /api/containers/{id}/metrics: `range` (1h by default). `minutes` (1-1440) is what older
 * callers send: up to 60 reads as 1h, more as 24h.
 */
export const containerMetricsQuery = z.object({
  range: z.enum(METRICS_RANGES, { errorMap: () => ({ message: MSG_METRICS_RANGE }) }).optional(),
  minutes: z.coerce
    .number({ invalid_type_error: '时间范围为 1-1440 分钟' })
    .int('时间范围为 1-1440 分钟')
    .min(1, '时间范围为 1-1440 分钟')
    .max(1440, '时间范围为 1-1440 分钟')
    .optional(),
});

/** The range a parsed containerMetricsQuery asks for. */
export function metricsRange(query: z.output<typeof containerMetricsQuery>): MetricsRange {
  if (query.range) return query.range;
  return query.minutes !== undefined && query.minutes > 60 ? '24h' : '1h';
}
