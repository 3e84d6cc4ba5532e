// The nodes module's replies (admin 节点管理 and the GPU charts), written once: the views are
// typed by them and the console imports their types (src/api.ts). Only zod here.
import { z } from 'zod';

/** A labelled container on the host the platform has no row for (reported, never removed). */
export const unknownContainerReply = z.object({
  container_id: z.string(),
  docker_id: z.string(),
  owner_id: z.string(),
  state: z.string(),
  image: z.string(),
});

/**
 * One GPU of a node. The UUID is its identity; index and bus id are for people. `state`:
 * ok, unhealthy (health_problem says why), missing (no longer reported by the host: its
 * containers are flagged and their owners told), mig (MIG enabled: not sold whole),
 * fabric (NVLink fabric not Completed).
 */
export const nodeGpuReply = z.object({
  uuid: z.string(),
  index: z.number(),
  pci_bus_id: z.string(),
  model: z.string(),
  memory_total_mib: z.number(),
  state: z.enum(['ok', 'unhealthy', 'missing', 'mig', 'fabric']),
  health_problem: z.string(),
  persistence_mode: z.boolean(),
  fabric_state: z.string(),
  numa_node: z.number(),
  /** UUIDs of the GPUs it reaches over NVLink. */
  nvlink_peers: z.array(z.string()),
  allocated: z.boolean(),
  /** The container holding it, if any. */
  container_id: z.string().nullable(),
});
export type NodeGpuReply = z.infer<typeof nodeGpuReply>;

/** A node as GET /api/admin/nodes and /api/admin/nodes/{id} answer it. */
export const nodeReply = z.object({
  id: z.number(),
  name: z.string(),
  address: z.string(),
  region: z.string(),
  /** The host users connect to (configured, else the agent's, else the address host). */
  public_host: z.string(),
  status: z.enum(['online', 'offline', 'unsafe']),
  last_heartbeat_at: z.string().nullable(),
  hostname: z.string(),
  cpu_model: z.string(),
  cpu_cores: z.number(),
  memory_total_bytes: z.number(),
  docker_available: z.boolean(),
  docker_error: z.string().nullable(),
  docker_version: z.string(),
  nvidia_driver_version: z.string(),
  cuda_version: z.string(),
  container_toolkit_version: z.string(),
  /** The toolkit's mode (auto, legacy, cdi, csv) and its parts' versions, checked together. */
  container_toolkit_mode: z.string(),
  nvidia_container_cli_version: z.string(),
  nvidia_container_runtime_hook_version: z.string(),
  nvidia_cdi_hook_version: z.string(),
  /** How containers get GPUs: cdi (nvidia.com/gpu=<UUID>) or legacy (the nvidia runtime hook); '' without GPUs. */
  gpu_device_path: z.enum(['cdi', 'legacy', '']),
  /** For the operator, not blocking (persistence mode off, ...). */
  warnings: z.array(z.string()),
  /** Non-empty when nvidia-smi failed as a whole on the node (its GPUs are then unavailable). */
  gpu_probe_error: z.string(),
  unsafe_reason: z.string(),
  simulated: z.boolean(),
  gpu_model: z.string().nullable(),
  gpu_total: z.number(),
  gpu_allocated: z.number(),
  /** GPUs that may be rented now: present, healthy, not MIG, fabric ready, not allocated. */
  gpu_free: z.number(),
  gpus: z.array(nodeGpuReply),
  unknown_containers: z.array(unknownContainerReply),
  reconciled_at: z.string().nullable(),
});
export type NodeReply = z.infer<typeof nodeReply>;

export const nodeListReply = z.object({ items: z.array(nodeReply), total: z.number() });
export type NodeListReply = z.infer<typeof nodeListReply>;

/** One GPU of one sample (by UUID; the index is for the chart's legend). */
export const gpuMetricReply = z.object({
  uuid: z.string(),
  index: z.number(),
  utilization_percent: z.number(),
  memory_used_mib: z.number(),
  memory_total_mib: z.number(),
  temperature_c: z.number(),
  power_draw_w: z.number(),
});

/** GET /api/admin/nodes/{id}/metrics and /api/containers/{id}/metrics: one sample per 15 s. */
export const gpuMetricsReply = z.object({
  gpus: z.array(z.object({ uuid: z.string(), index: z.number(), model: z.string() })),
  samples: z.array(z.object({ time: z.string(), gpus: z.array(gpuMetricReply) })),
});
export type GpuMetricsReply = z.infer<typeof gpuMetricsReply>;

/** One image on a node (GET /api/admin/nodes/{id}/images, POST …/images/warm). */
export const nodeImageReply = z.object({
  image: z.string(),
  /** Framework versions of the catalogue that run it ("PyTorch 2.4.0"); empty for others. */
  versions: z.array(z.string()),
  in_catalogue: z.boolean(),
  status: z.enum(['present', 'pulling', 'failed', 'absent']),
  progress: z.number(),
  size_bytes: z.number().nullable(),
  error: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type NodeImageReply = z.infer<typeof nodeImageReply>;

export const nodeImagesReply = z.object({
  items: z.array(nodeImageReply),
  total: z.number(),
  disk_total_bytes: z.number().nullable(),
  disk_free_bytes: z.number().nullable(),
  /** When the node last said what it holds. */
  listed_at: z.string().nullable(),
});
export type NodeImagesReply = z.infer<typeof nodeImagesReply>;
