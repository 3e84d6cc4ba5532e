import { z } from 'zod';
import { purchaseSchema } from '../containers/schema.js';

/** Every id of a request: a safe positive integer. */
const imageId = z
  .number({ required_error: '请选择应用', invalid_type_error: '请选择应用' })
  .int('请选择应用')
  .positive('请选择应用')
  .max(Number.MAX_SAFE_INTEGER, '请选择应用');

const gpuType = z.enum(['rtx4090', 'a100'], { errorMap: () => ({ message: '请选择 GPU 型号' }) });

const gpuCount = z
  .number({ required_error: '请选择GPU数量', invalid_type_error: '请选择GPU数量' })
  .int('请选择GPU数量')
  .min(1, 'GPU数量为1-8')
  .max(8, 'GPU数量为1-8');

export const deploySchema = z.object({
  image_id: imageId,
  instanceName: z
    .string({ required_error: '请输入实例名称', invalid_type_error: '请输入实例名称' })
    .max(256, '实例名称不能超过64个字符')
    .trim()
    .min(1, '请输入实例名称')
    .max(64, '实例名称不能超过64个字符'),
  gpu_type: gpuType,
  gpuCount,
  env: z
    .array(
      z.object({
        key: z
          .string({ invalid_type_error: '环境变量名只能包含字母、数字和下划线，且不能以数字开头' })
          .max(256, '环境变量名只能包含字母、数字和下划线，且不能以数字开头')
          .trim()
          .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, '环境变量名只能包含字母、数字和下划线，且不能以数字开头'),
        value: z
          .string({ invalid_type_error: '环境变量值不能超过4096个字符' })
          .max(4096, '环境变量值不能超过4096个字符'),
      }),
    )
    .max(32, '环境变量最多32个')
    .default([]),
  /** The purchase's own rule and message (请同意服务条款): no charge without the terms. */
  agreeTerms: purchaseSchema.shape.agreeTerms,
  /**
   * The total the drawer showed (yuan, one hour): the purchase's own field (bounded there), and the
   * purchase refuses a total that differs from its own (价格已变化，请刷新后重试).
   */
  total_price: purchaseSchema.shape.total_price,
});
export type DeployInput = z.output<typeof deploySchema>;

/** GET /api/apps/deploy-quote: the server a deploy of these choices would use, and so its price. */
export const deployQuoteQuery = z.object({
  image_id: z.coerce.number({ required_error: '请选择应用', invalid_type_error: '请选择应用' }).pipe(imageId),
  gpu_type: gpuType,
  gpuCount: z.coerce
    .number({ required_error: '请选择GPU数量', invalid_type_error: '请选择GPU数量' })
    .pipe(gpuCount),
});
export type DeployQuoteQuery = z.output<typeof deployQuoteQuery>;
