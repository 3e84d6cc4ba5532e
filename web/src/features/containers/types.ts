export type ContainerStatus =
  | 'running'
  | 'starting'
  /** Bought; the node pulls the image (pull_progress %). */
  | 'pulling'
  | 'stopped'
  | 'error'
  | 'failed'
  | 'not_found'
  | 'deleted';

export interface ContainerPort {
  container_port: number;
  host_port: number;
  name?: string;
}

/** docs/api.md Container. */
export interface Container {
  container_id: string;
  name: string;
  username?: string;
  status: ContainerStatus | string;
  image_name: string;
  create_time: string | null;
  start_time?: string | null;
  end_time?: string | null;
  billing_type: string;
  price?: number;
  total_cost?: number;
  gpu_count: number;
  gpu_type?: string | null;
  region?: string | null;
  node_id?: number;
  node_name?: string | null;
  simulated?: boolean;
  /** online / offline / unsafe: the node's state; an offline node's containers cannot be reached. */
  node_status?: string;
  ssh_server: string | null;
  ssh_port: number | null;
  password: string | null;
  /** Container port → host port, e.g. {"22": 10001, "8888": 10002}. */
  frame_ports?: Record<string, number> | null;
  custom_ports?: number[];
  ports?: ContainerPort[];
  mounts?: { source: string; target: string }[];
  start_error?: string | null;
  /** While pulling: how much of the image the node has, 0-100. */
  pull_progress?: number | null;
  /** Jupyter on port 8888 as the node reported it: running, starting, absent (not in the image), image. */
  jupyter?: string;
  /** Started without GPUs (无卡模式), billed at the no-GPU price. */
  no_gpu?: boolean;
  no_gpu_price?: number;
  /** Mounts saved for the next start (待重启生效); null when none are pending. */
  pending_mounts?: { source: string; target: string }[] | null;
  gpu_indices?: number[];
}

/** The drawers and dialogs a container row opens. */
export type ContainerPanel = 'logs' | 'metrics' | 'console' | 'ports' | 'mounts';
