import { LOCAL_BASE_IMAGE } from '../src/modules/catalogue/seed.js';
import type { RunningControlPlane } from '../src/platform.js';
import { ADMIN, ApiClient } from './harness.js';

export const UBUNTU_IMAGE = 'Ubuntu 22.04 + CUDA 12.4 Jupyter';
export const WINDOWS_IMAGE = 'Windows 10 + CUDA 12.6';

interface AdminFramework {
  id: number;
  name: string;
  versions: {
    id: number;
    version: string;
    cuda_version: string;
    system_type: string;
    ports: Record<string, unknown>;
    mounts: unknown[];
  }[];
}

/**
 * The test engine has no registry: an admin points the Ubuntu version at the locally built image
 * (busybox + sshd), as an operator of an offline site would, through the catalogue admin API.
 */
export async function runUbuntuOnLocalImage(cp: RunningControlPlane): Promise<void> {
  const admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
  const res = await admin.request<{ items: AdminFramework[] }>('GET', '/api/admin/frameworks');
  const ubuntu = res.body.items.find((f) => f.name === 'Ubuntu');
  const version = ubuntu?.versions[0];
  if (!version) throw new Error(`no Ubuntu version: ${JSON.stringify(res.body)}`);
  const put = await admin.request('PUT', `/api/admin/framework-versions/${version.id}`, {
    version: version.version,
    image: LOCAL_BASE_IMAGE,
    cuda_version: version.cuda_version,
    system_type: version.system_type,
    ports: version.ports,
    mounts: version.mounts,
  });
  if (put.status !== 200) throw new Error(`version update failed: ${JSON.stringify(put.body)}`);
}

/** A new API key of the signed-in user. */
export async function createApiKey(api: ApiClient, name = 'mcp'): Promise<string> {
  const res = await api.request<{ key: string }>('POST', '/api/api-keys/', { name });
  if (res.status !== 201) throw new Error(`api key failed: ${JSON.stringify(res.body)}`);
  return res.body.key;
}
