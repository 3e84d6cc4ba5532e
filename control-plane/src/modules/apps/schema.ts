import { z } from 'zod';

export const deploySchema = z.object({
  image_id: z
    .number({ required_error: '请选择应用', invalid_type_error: '请选择应用' })
    .int()
    .positive('请选择应用'),
  instanceName: z
    .string({ required_error: '请输入实例名称' })
    .trim()
    .min(1, '请输入实例名称')
    .max(64, '实例名称不能超过64个字符'),
  gpu_type: z.enum(['rtx4090', 'a100'], { errorMap: () => ({ message: '请选择 GPU 型号' }) }),
  gpuCount: z
    .number({ required_error: '请选择GPU数量', invalid_type_error: '请选择GPU数量' })
    .int('请选择GPU数量')
    .min(1, 'GPU数量为1-8')
    .max(8, 'GPU数量为1-8'),
  env: z
    .array(
      z.object({
        key: z
          .string()
          .trim()
          .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, '环境变量名只能包含字母、数字和下划线，且不能以数字开头'),
        value: z.string().max(4096, '环境变量值不能超过4096个字符'),
      }),
    )
    .max(32, '环境变量最多32个')
    .default([]),
});
export type DeployInput = z.output<typeof deploySchema>;
