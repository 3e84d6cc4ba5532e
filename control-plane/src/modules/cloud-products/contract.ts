// The cloud products' replies (算力市场 and the admin 服务器配置), written once: the views are typed
// by them and the console imports their types (src/api.ts). Only zod here.
import { z } from 'zod';

/** A server configuration offered in the market (GET /api/cloud-products, …/{id}). */
export const cloudProductReply = z.object({
  id: z.number(),
  name: z.string(),
  region: z.string(),
  gpu_type: z.string(),
  /** Text 'available/total'. */
  gpu_count: z.string(),
  gpu_available: z.number(),
  gpu_total: z.number(),
  cpu_model: z.string(),
  cpu_cores: z.number(),
  memory: z.string(),
  disk_size: z.string(),
  /** Yuan per GPU per hour. */
  price: z.number(),
  /** Yuan per hour while running without GPUs (无卡模式). */
  no_gpu_price: z.number(),
  /** `system_gpu_type` (ubuntu / windows) and whatever else the admin saved. */
  server_config: z.record(z.string(), z.unknown()),
  status: z.enum(['available', 'offline']),
  node_id: z.number(),
  simulated: z.boolean(),
  /** Framework versions whose image the product's node holds: they start at once (秒级启动). */
  warm_version_ids: z.array(z.number()),
});
export type CloudProductReply = z.infer<typeof cloudProductReply>;

export const cloudProductListReply = z.object({ items: z.array(cloudProductReply), total: z.number() });
export type CloudProductListReply = z.infer<typeof cloudProductListReply>;

/** GET /api/admin/products item (disabled ones too), and the answer of saving one. */
export const adminProductReply = cloudProductReply.extend({ enabled: z.boolean(), node_name: z.string() });
export type AdminProductReply = z.infer<typeof adminProductReply>;

export const adminProductListReply = z.object({ items: z.array(adminProductReply), total: z.number() });
export type AdminProductListReply = z.infer<typeof adminProductListReply>;
