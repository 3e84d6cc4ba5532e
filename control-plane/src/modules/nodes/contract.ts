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
  // Health at a glance (issue 19).
  /** Since the node's last heartbeat; null before the first. */
  heartbeat_age_ms: z.number().nullable(),
  /**
   * The node's present GPUs: free (may be rented now), used (held by a container that runs or is
   * on its way), held (保留: kept by a container that does not run, e.g. a stopped prepaid one,
   * which keeps what was paid for; an hourly one gives its GPUs back when it stops), total. free + used + held can be
   * below total: a GPU that is unhealthy, MIG or fabric-not-ready is neither.
   */
  gpu_usage: z.object({ free: z.number(), used: z.number(), held: z.number(), total: z.number() }),
  /** The container toolkit is unsafe (below the floor, or a part of it is): the node takes no GPU work. */
  toolkit_unsafe: z.boolean(),
  toolkit_unsafe_reason: z.string(),
  /** Docker's data root (images) and the volume root: free and total bytes, null when not reported. */
  image_disk_free_bytes: z.number().nullable(),
  image_disk_total_bytes: z.number().nullable(),
  volume_disk_free_bytes: z.number().nullable(),
  volume_disk_total_bytes: z.number().nullable(),
  /** The node monitor's last failed call to the node (cleared when one succeeds) and when. */
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
  /** 维护中: not offered in the market, running containers kept. */
  maintenance: z
    .object({ since: z.string(), until: z.string().nullable(), reason: z.string().nullable() })
    .nullable(),
  // Agent versions and 升级 (issue 19, fleet/agent-versions.ts).
  /** What the node's agent runs (its GetHostInfo): version, build ("source" from a checkout), protocol; null until read. */
  agent_version: z.string().nullable(),
  agent_build: z.string().nullable(),
  agent_protocol: z.number().nullable(),
  /** The agent differs from the one this control plane ships (升级 moves it there). */
  agent_outdated: z.boolean(),
  /** Non-empty when the control plane does not speak the agent's protocol: the node is kept offline. */
  incompatible_reason: z.string(),
  /** 升级中 since then (POST /api/admin/nodes/{id}/upgrade); null when no upgrade is under way. */
  upgrading_since: z.string().nullable(),
  /** Why the last upgrade failed (timed out, refused by the agent), and when; null after a success. */
  upgrade_error: z.string().nullable(),
  upgrade_error_at: z.string().nullable(),
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

/** GET /api/admin/nodes/{id}/metrics: one sample per 15 s (a container's: containers/contract.ts). */
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
  /** 预热中: downloading (下载中) or extracting (解压中); null unless pulling. */
  pull_phase: z.enum(['downloading', 'extracting']).nullable(),
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
