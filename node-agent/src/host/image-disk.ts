// Space where Docker keeps images and container layers: its data root (`docker info`
// DockerRootDir), measured with statfs. Only where the engine runs on this host (its socket is
// local) and the folder is visible here; a remote engine (tcp://) reports 0 = unknown.
import fs from 'node:fs/promises';
import type { DiskSpace } from './host-facts.js';

/** How long the data root Docker reported is believed (it changes only with Docker's settings). */
const DATA_ROOT_TTL_MS = 5 * 60_000;

export class ImageDisk {
  private root: { path: string; at: number } | undefined;

  constructor(
    private readonly dataRoot: () => Promise<string>,
    /** False for an engine on another host: its data root is not our filesystem. */
    private readonly local: boolean,
  ) {}

  /** The data root's filesystem space, or zeros when it cannot be known here. */
  async space(): Promise<DiskSpace> {
    if (!this.local) return { totalBytes: 0, freeBytes: 0 };
    try {
      if (!this.root || Date.now() - this.root.at > DATA_ROOT_TTL_MS) {
        this.root = { path: await this.dataRoot(), at: Date.now() };
      }
      if (!this.root.path) return { totalBytes: 0, freeBytes: 0 };
      const st = await fs.statfs(this.root.path);
      return { totalBytes: st.blocks * st.bsize, freeBytes: st.bavail * st.bsize };
    } catch {
      // Docker down, or its data root not visible from here (another mount namespace).
      return { totalBytes: 0, freeBytes: 0 };
    }
  }
}

/** Whether a DOCKER_HOST names an engine on this host (a unix socket), not one reached over tcp. */
export function isLocalEngine(dockerHost: string | undefined): boolean {
  return !dockerHost || dockerHost.startsWith('unix://') || dockerHost.startsWith('/');
}
