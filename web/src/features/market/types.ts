import type { BillingType } from '../../lib/billing-types';

export type EntityId = number | string;

export interface ServerConfig {
  system_gpu_type?: string;
}

/** A server configuration offered in the market (docs/api.md CloudProduct). */
export interface CloudProduct {
  id: EntityId;
  name: string;
  region: string;
  gpu_type: string;
  /** Text 'available/total'. */
  gpu_count: string;
  gpu_available?: number;
  gpu_total?: number;
  cpu_model: string;
  cpu_cores: number;
  memory: string;
  disk_size: string;
  /** Yuan per GPU per hour. */
  price: number;
  no_gpu_price?: number;
  /** An object per docs/api.md; older servers sent a JSON string. */
  server_config: ServerConfig | string | null;
  status: 'available' | 'offline' | string;
  node_id?: EntityId;
  simulated?: boolean;
  /** Framework versions whose image the server's node holds: they start at once (秒级启动). */
  warm_version_ids?: EntityId[];
}

/** Framework ports: name → container port, optionally `custom: "rdp:3389,vnc:5900"` (Windows). */
export type FrameworkPorts = Record<string, number | string | undefined>;

export interface Framework {
  id: EntityId;
  name: string;
  ports?: FrameworkPorts;
}

export interface MountEntry {
  source: string;
  target: string;
}

export interface FrameworkVersion {
  id: EntityId;
  framework_id?: EntityId;
  version: string;
  image?: string;
  cuda_version?: string;
  system_type?: 'ubuntu' | 'windows' | string;
  ports?: FrameworkPorts;
  mounts?: MountEntry[];
}

export type ImageType = 'public' | 'custom';

/** Body of POST /api/cloud-products/{id}/purchase. */
export interface PurchasePayload {
  instanceName: string;
  gpuCount: number;
  needExpand: boolean;
  imageType: ImageType;
  framework: EntityId;
  frameworkVersion: EntityId;
  frame_ports: FrameworkPorts;
  custom_ports: number[];
  agreeTerms: true;
  mounts: MountEntry[];
  billing_type: BillingType;
  duration: number;
  total_price: number;
}

export interface PurchaseAnswer {
  container_id: string;
  /** `creating`: the node pulls, creates and starts it after the answer (see 我的容器). */
  status: string;
}
