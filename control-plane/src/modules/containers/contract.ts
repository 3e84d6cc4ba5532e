// The containers module's replies, as the console reads them: written once here, the views are
// typed by them (view.ts), the console imports their types (src/api.ts) and tests parse served
// replies with them. Only zod here: the console type-checks this file.
import { z } from 'zod';

const mountReply = z.object({ source: z.string(), target: z.string() });

/** A container as GET /api/containers (and every command on one) answers it. */
export const containerReply = z.object({
  container_id: z.string(),
  name: z.string(),
  username: z.string(),
  /** The platform status; a purchase the node still creates is `starting` to its owner. */
  status: z.string(),
  image_name: z.string(),
  create_time: z.string(),
  start_time: z.string().nullable(),
  /** When the paid time ends (null for hourly billing). */
  end_time: z.string().nullable(),
  stopped_time: z.string().nullable(),
  billing_type: z.string(),
  /** Yuan per GPU hour. */
  price: z.number(),
  total_cost: z.number(),
  gpu_count: z.number(),
  gpu_type: z.string(),
  /** nvidia-smi indices of its GPUs, for people (the GPUs are held by UUID: `gpus`). */
  gpu_indices: z.array(z.number()),
  /** Its GPUs: UUID (the identity), index and bus id (for people), and whether each is usable. */
  gpus: z.array(
    z.object({
      uuid: z.string(),
      index: z.number(),
      pci_bus_id: z.string(),
      state: z.enum(['ok', 'unhealthy', 'missing', 'mig', 'fabric']),
    }),
  ),
  /** Set when a GPU it holds has failed or disappeared (Chinese, for its owner); null when all are fine. */
  gpu_problem: z.string().nullable(),
  region: z.string(),
  node_id: z.number(),
  node_name: z.string(),
  /** online / offline / unsafe: an offline node's containers cannot be reached. */
  node_status: z.string(),
  simulated: z.boolean(),
  ssh_server: z.string(),
  ssh_port: z.number().nullable(),
  password: z.string(),
  /** Container port → host port of the framework's ports, e.g. {"22": 10001, "8888": 10002}. */
  frame_ports: z.record(z.string(), z.number()),
  /** Host ports of the custom ports (host port = container port). */
  custom_ports: z.array(z.number()),
  ports: z.array(z.object({ name: z.string(), container_port: z.number(), host_port: z.number() })),
  mounts: z.array(mountReply),
  start_error: z.string().nullable(),
  /**
   * Jupyter on the container's 8888 port: running, starting, absent (the image has none: the
   * console says so instead of a dead link), image (its own command runs it); '' = not known yet.
   */
  jupyter: z.string(),
  /**
   * Bytes in its writable layer (系统盘) as the node last measured them, where the node cannot
   * limit it; null = not measured (limited by the node, or not measured yet).
   */
  writable_layer_bytes: z.number().nullable(),
  /** The owner's warning (Chinese) when that layer nears or passes the node's allowance; null otherwise. */
  disk_warning: z.string().nullable(),
  /** 拉取镜像中: how much of the image the node has, 0-100 (status pulling); null otherwise. */
  pull_progress: z.number().nullable(),
  /** 拉取镜像中: downloading (下载中) or extracting (解压中); null unless pulling. */
  pull_phase: z.enum(['downloading', 'extracting']).nullable(),
  /** Running without GPUs (无卡模式), at the no-GPU price. */
  no_gpu: z.boolean(),
  no_gpu_price: z.number(),
  /** Mounts saved for the next start (待重启生效), when they differ from the current ones. */
  pending_mounts: z.array(mountReply).nullable(),
});
export type ContainerReply = z.infer<typeof containerReply>;

/** GET /api/containers and GET /api/admin/containers. */
export const containerListReply = z.object({ items: z.array(containerReply), total: z.number() });
export type ContainerListReply = z.infer<typeof containerListReply>;

/** GET /api/containers/{id}/status: the status watch of a starting or pulling container. */
export const containerStatusReply = containerReply.pick({ status: true, pull_progress: true });
export type ContainerStatusReply = z.infer<typeof containerStatusReply>;

/** POST /api/containers/{id}/reset-password. */
export const containerPasswordReply = z.object({ password: z.string() });
export type ContainerPasswordReply = z.infer<typeof containerPasswordReply>;

/** POST /api/cloud-products/{id}/purchase (201). */
export const purchaseReply = z.object({
  container_id: z.string(),
  /** Always `creating`: the node pulls, creates and starts it after the answer. */
  status: z.literal('creating'),
});
export type PurchaseReply = z.infer<typeof purchaseReply>;

/** One GPU at one point of GET /api/containers/{id}/metrics: means over the step, and maxima. */
export const containerGpuPointReply = z.object({
  /** GPU utilisation, % (mean over the step). */
  utilization: z.number(),
  /** The highest sampled utilisation in the step, %. */
  utilization_max: z.number(),
  /** Memory used, MiB (mean over the step). */
  memory_used_mib: z.number(),
  /** The most memory used in the step, MiB. */
  memory_used_max_mib: z.number(),
  temperature_c: z.number(),
  /** Power draw, W (mean over the step). */
  power_w: z.number(),
});
export type ContainerGpuPointReply = z.infer<typeof containerGpuPointReply>;

/**
 * GET /api/containers/{id}/metrics?range=1h|24h (监控): the GPUs the container held over the range,
 * each sample attributed when it came to the container holding the GPU then. `samples[].gpus[i]`
 * is `gpus[i]` at that point, null where the container did not hold it then. `1h`: one point per
 * minute; `24h`: one per 5 minutes. `simulated`: the node's GPUs are simulated (模拟).
 */
export const containerMetricsReply = z.object({
  simulated: z.boolean(),
  range: z.enum(['1h', '24h']),
  step_seconds: z.number(),
  gpus: z.array(
    z.object({
      uuid: z.string(),
      /** nvidia-smi's index, for people; -1 when the node no longer lists the GPU. */
      index: z.number(),
      model: z.string(),
      memory_total_mib: z.number(),
      /** The power limit last read, W (0 = not reported). */
      power_limit_w: z.number(),
    }),
  ),
  samples: z.array(z.object({ t: z.string(), gpus: z.array(containerGpuPointReply.nullable()) })),
});
export type ContainerMetricsReply = z.infer<typeof containerMetricsReply>;
