// The storage module's replies (存储管理 and the volume pickers), written once: the service is
// typed by them and the console imports their types (src/api.ts). Only zod here.
import { z } from 'zod';

/** A volume with its node and the containers using it (GET /api/storage/info, create, rename). */
export const volumeReply = z.object({
  id: z.number(),
  name: z.string(),
  path: z.string(),
  /** Bytes, as last measured on the node. */
  size: z.number(),
  node_id: z.number(),
  agent: z.object({ server_hostname: z.string(), name: z.string(), region: z.string() }),
  /** ready, or deleting (删除中: the node removes it; the volume goes when it is done). */
  status: z.enum(['ready', 'deleting']),
  /** 删除中 n%: of the files and bytes measured first, 0-99; null unless deleting. */
  delete_progress: z.number().nullable(),
  /** Why the last delete failed (the volume was kept); null otherwise. */
  delete_error: z.string().nullable(),
  containers: z.array(
    z.object({
      id: z.string(),
      container_id: z.string(),
      name: z.string(),
      mount_path: z.string(),
      /** Saved for the container's next start. */
      pending: z.boolean(),
    }),
  ),
  created_at: z.string(),
});
export type VolumeReply = z.infer<typeof volumeReply>;

/** GET /api/storage/info: usage against the quota and every volume. */
export const storageInfoReply = z.object({
  /** GB (1024³ bytes), two decimals. */
  used_storage: z.number(),
  quota_storage: z.number(),
  used_bytes: z.number(),
  quota_bytes: z.number(),
  volumes: z.array(volumeReply),
});
export type StorageInfoReply = z.infer<typeof storageInfoReply>;

/** GET /api/storage/volumes item: a volume as the purchase and mount dialogs offer it. */
export const volumeSummaryReply = volumeReply.pick({ id: true, name: true, path: true, node_id: true });
export type VolumeSummaryReply = z.infer<typeof volumeSummaryReply>;

/** GET /api/storage/nodes item: a node a new volume can be made on. */
export const storageNodeReply = z.object({ id: z.number(), name: z.string(), region: z.string() });
export type StorageNodeReply = z.infer<typeof storageNodeReply>;
