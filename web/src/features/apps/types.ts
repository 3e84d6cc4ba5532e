import type { EntityId } from '../market/types';

export type AppCategory = 'all' | 'pytorch' | 'tensorflow' | 'nlp' | 'cv' | 'ml';

/** An app image of the market (GET /api/images). */
export interface AppImage {
  id: EntityId;
  name: string;
  icon: string | null;
  description: string | null;
  category?: AppCategory | string;
  created_at: string | null;
  updated_at?: string | null;
  framework_version_id?: EntityId;
  framework: {
    id?: EntityId;
    name: string;
    version: { id?: EntityId; name: string; cuda_version?: string | null };
  };
}

export type DeployGpuType = 'rtx4090' | 'a100';

export interface EnvEntry {
  key: string;
  value: string;
}

/** Body of POST /api/apps/deploy. */
export interface DeployPayload {
  image_id: EntityId;
  instanceName: string;
  gpu_type: DeployGpuType;
  gpuCount: number;
  env: EnvEntry[];
}

export interface DeployAnswer {
  container_id: string;
  /** `creating`: the node pulls, creates and starts it after the answer (see 我的容器). */
  status: string;
  product_id?: EntityId;
  total_price?: number;
}
