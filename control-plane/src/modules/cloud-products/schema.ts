import { z } from 'zod';

const yuan = (what: string) =>
  z
    .number({ required_error: `请输入${what}`, invalid_type_error: `请输入${what}` })
    .nonnegative(`${what}不能为负数`)
    .max(100_000, `${what}过大`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `${what}最多两位小数`);

/** A cloud product (a node's offering), as admins create and edit it; prices in yuan. */
export const productSchema = z.object({
  node_id: z
    .number({ required_error: '请选择节点', invalid_type_error: '请选择节点' })
    .int()
    .positive('请选择节点'),
  name: z.string({ required_error: '请输入名称' }).trim().min(1, '请输入名称').max(128),
  region: z.string({ required_error: '请输入地区' }).trim().min(1, '请输入地区').max(64),
  gpu_type: z.string({ required_error: '请输入 GPU 型号' }).trim().min(1, '请输入 GPU 型号').max(128),
  price: yuan('单价'),
  no_gpu_price: yuan('无卡价格').default(0),
  cpu_model: z.string().trim().max(128).default(''),
  cpu_cores: z.number().int().min(0).max(4096).default(0),
  memory: z.string().trim().max(32).default('32GB'),
  disk_size: z.string().trim().max(32).default('200GB NVMe'),
  server_config: z
    .object({ system_gpu_type: z.enum(['ubuntu', 'windows']).default('ubuntu') })
    .passthrough()
    .default({ system_gpu_type: 'ubuntu' }),
  enabled: z.boolean().default(true),
});
export type ProductInput = z.output<typeof productSchema>;
