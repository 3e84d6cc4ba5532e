import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * npm start's data folder (scripts/lib/setup.mjs), where the control plane keeps what it makes
 * (the embedded registry's images, the agent bundle): GPUCLOUD_DATA_DIR, else .data at the
 * repository root.
 */
export function platformDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.GPUCLOUD_DATA_DIR ? path.resolve(env.GPUCLOUD_DATA_DIR) : path.join(REPO_ROOT, '.data');
}
