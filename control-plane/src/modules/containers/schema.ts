import { z } from 'zod';
import { BILLING_TYPE_NAMES } from '../pricing/pricing.js';

export const MOUNT_TARGET_PATTERN = /^\/[A-Za-z0-9_/.-]*$/;
export const MAX_MOUNTS = 5;
export const MAX_CUSTOM_PORTS = 5;
export const PURCHASE_PORT_MIN = 10000;
export const PURCHASE_PORT_MAX = 65535;

const mountSchema = z.object({
  source: z.string({ required_error: '请完善所有挂载点配置' }).trim().min(1, '请完善所有挂载点配置'),
  target: z
    .string({ required_error: '请完善所有挂载点配置' })
    .trim()
    .min(1, '请完善所有挂载点配置')
    .regex(MOUNT_TARGET_PATTERN, '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线')
    .refine(
      (t) => !t.split('/').includes('..'),
      '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线',
    ),
});

export const purchaseSchema = z.object({
  instanceName: z.string().trim().max(64, '实例名称不能超过64个字符').optional().default(''),
  gpuCount: z
    .number({ required_error: '请选择GPU数量', invalid_type_error: '请选择GPU数量' })
    .int('请选择GPU数量')
    .min(1, '请选择GPU数量')
    .max(8, 'GPU数量不能超过8'),
  needExpand: z.boolean().optional().default(false),
  imageType: z.enum(['public', 'custom']).optional().default('public'),
  framework: z.coerce
    .number({ required_error: '请选择框架', invalid_type_error: '请选择框架' })
    .int()
    .positive('请选择框架'),
  frameworkVersion: z.coerce
    .number({ required_error: '请选择版本', invalid_type_error: '请选择版本' })
    .int()
    .positive('请选择版本'),
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
    .optional()
    .default(1),
  total_price: z.number({ required_error: '价格不能为空', invalid_type_error: '价格不能为空' }).nonnegative(),
});

export type PurchaseInput = z.output<typeof purchaseSchema>;
