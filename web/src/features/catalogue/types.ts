import type { AppCategory, AppImage } from '../apps/types';
import type { CloudProduct, EntityId, FrameworkPorts, FrameworkVersion, MountEntry } from '../market/types';

/** GET /api/admin/frameworks item. */
export interface AdminFramework {
  id: EntityId;
  name: string;
  ports: Record<string, number>;
  sort?: number;
  versions: FrameworkVersion[];
}

export interface FrameworkInput {
  name: string;
  ports: Record<string, number>;
}

export type SystemType = 'ubuntu' | 'windows';

export interface VersionInput {
  version: string;
  image: string;
  cuda_version: string;
  system_type: SystemType;
  ports: FrameworkPorts;
  mounts: MountEntry[];
}

export type AdminImage = AppImage & { framework_version_id: EntityId };

export interface ImageInput {
  name: string;
  icon: string;
  description: string;
  category: AppCategory;
  framework_version_id: EntityId;
}

/** GET /api/admin/products item: disabled ones too. */
export type AdminProduct = CloudProduct & { enabled: boolean; node_name?: string | null };

export interface ProductInput {
  node_id: EntityId;
  name: string;
  region: string;
  gpu_type: string;
  price: number;
  no_gpu_price: number;
  cpu_model: string;
  cpu_cores: number;
  memory: string;
  disk_size: string;
  server_config: { system_gpu_type: SystemType };
  enabled?: boolean;
}
