export type NodeStatus = 'online' | 'offline' | 'unsafe';

export interface NodeGpu {
  index: number;
  uuid: string;
  model: string;
  memory_total_mib: number;
  utilization_percent: number;
  allocated: boolean;
}

/** docs/api.md Node. */
export interface GpuNode {
  id: number | string;
  name: string;
  address: string;
  public_host?: string | null;
  region: string;
  status: NodeStatus | string;
  last_heartbeat_at: string | null;
  hostname?: string | null;
  cpu_model?: string | null;
  cpu_cores?: number | null;
  memory_total_bytes?: number | null;
  docker_available: boolean;
  docker_error?: string | null;
  simulated?: boolean;
  gpu_model?: string | null;
  gpu_total?: number | null;
  gpus?: NodeGpu[];
  docker_version?: string;
  nvidia_driver_version?: string;
  container_toolkit_version?: string;
  unsafe_reason?: string;
  gpu_allocated?: number;
  unknown_containers?: UnknownContainer[];
  reconciled_at?: string | null;
}

/** A labelled container on the host the platform has no row for (reported, never removed). */
export interface UnknownContainer {
  container_id: string;
  docker_id: string;
  owner_id: string;
  state: string;
  image: string;
}

/** Body of POST /api/admin/nodes. */
export interface NewNode {
  name: string;
  address: string;
  token: string;
  region: string;
  public_host?: string;
}

/** One image on a node (GET /api/admin/nodes/{id}/images). */
export interface NodeImage {
  image: string;
  /** Catalogue framework versions that run it ("PyTorch 2.4.0"). */
  versions: string[];
  in_catalogue: boolean;
  status: 'present' | 'pulling' | 'failed' | 'absent';
  progress: number;
  size_bytes: number | null;
  error: string | null;
  updated_at: string | null;
}

export interface NodeImages {
  items: NodeImage[];
  total: number;
  disk_total_bytes: number | null;
  disk_free_bytes: number | null;
  listed_at: string | null;
}
