import { z } from 'zod';
import { idField } from '../../framework/fields.js';

/** The highest price per GPU-hour (or per hour without GPUs) an admin may set, in yuan. */
export const MAX_PRICE_YUAN = 100_000;

const yuan = (what: string) =>
  z
    .number({ required_error: `请输入${what}`, invalid_type_error: `请输入${what}` })
    .nonnegative(`${what}不能为负数`)
    .max(MAX_PRICE_YUAN, `${what}不能超过${MAX_PRICE_YUAN}元`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `${what}最多两位小数`);

/** A cloud product (a node's offering), as admins create and edit it; prices in yuan. */
export const productSchema = z.object({
  node_id: idField('请选择节点'),
  name: z
    .string({ required_error: '请输入名称' })
    .trim()
    .min(1, '请输入名称')
    .max(128, '名称不能超过128个字符'),
  region: z
    .string({ required_error: '请输入地区' })
    .trim()
    .min(1, '请输入地区')
    .max(64, '地区不能超过64个字符'),
  gpu_type: z
    .string({ required_error: '请输入 GPU 型号' })
    .trim()
    .min(1, '请输入 GPU 型号')
    .max(128, 'GPU 型号不能超过128个字符'),
  price: yuan('单价'),
  no_gpu_price: yuan('无卡价格').default(0),
  cpu_model: z.string().trim().max(128, 'CPU 型号不能超过128个字符').default(''),
  cpu_cores: z
    .number({ invalid_type_error: 'CPU 核数为 0-4096' })
    .int('CPU 核数为 0-4096')
    .min(0, 'CPU 核数为 0-4096')
    .max(4096, 'CPU 核数为 0-4096')
    .default(0),
  memory: z.string().trim().max(32, '内存不能超过32个字符').default('32GB'),
  disk_size: z.string().trim().max(32, '磁盘不能超过32个字符').default('200GB NVMe'),
  // The console reads system_gpu_type; other keys are kept as given, within 4 KB.
  server_config: z
    .object({
      system_gpu_type: z
        .enum(['ubuntu', 'windows'], { errorMap: () => ({ message: '系统类型只能是 ubuntu 或 windows' }) })
        .default('ubuntu'),
    })
    .passthrough()
    .refine((config) => JSON.stringify(config).length <= 4096, '服务器配置不能超过4096个字符')
    .default({ system_gpu_type: 'ubuntu' }),
  enabled: z.boolean().default(true),
});
export type ProductInput = z.output<typeof productSchema>;

/** GET /api/cloud-products: the market's filters. */
export const productListQuery = z.object({
  billingType: z.string().max(32, '计费方式不正确').optional(),
  region: z.string().max(64, '地区不能超过64个字符').optional(),
  gpuCount: z.coerce
    .number({ invalid_type_error: 'GPU 数量为 1-8' })
    .int('GPU 数量为 1-8')
    .min(1, 'GPU 数量为 1-8')
    .max(8, 'GPU 数量为 1-8')
    .optional(),
  systemType: z
    .enum(['ubuntu', 'windows', 'all'], { errorMap: () => ({ message: '系统类型只能是 ubuntu 或 windows' }) })
    .optional(),
  gpuTypes: z
    .union([
      z.string().max(128, 'GPU 型号不能超过128个字符'),
      z.array(z.string().max(128, 'GPU 型号不能超过128个字符')).max(32, 'GPU 型号最多选择32个'),
    ])
    .optional(),
  status: z
    .enum(['available', 'offline'], { errorMap: () => ({ message: '状态只能是 available 或 offline' }) })
    .optional(),
});
