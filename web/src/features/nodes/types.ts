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
}

/** Body of POST /api/admin/nodes. */
export interface NewNode {
  name: string;
  address: string;
  token: string;
  region: string;
  public_host?: string;
}
