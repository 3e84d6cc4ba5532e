// Facts about the host: OS, kernel, CPU and memory from systeminformation (read once, they do
// not change while the agent runs), disk space of the volume root's filesystem on every call.
import fs from 'node:fs/promises';
import path from 'node:path';
import si from 'systeminformation';

export interface StaticHostFacts {
  hostname: string;
  os: string;
  kernel: string;
  arch: string;
  cpuModel: string;
  cpuCores: number;
  memoryTotalBytes: number;
}

export interface DiskSpace {
  totalBytes: number;
  freeBytes: number;
}

/** Space of the filesystem holding `dir` (or its nearest existing parent). */
export async function diskSpace(dir: string): Promise<DiskSpace> {
  let current = path.resolve(dir);
  for (;;) {
    try {
      const st = await fs.statfs(current);
      return { totalBytes: st.blocks * st.bsize, freeBytes: st.bavail * st.bsize };
    } catch (err) {
      const parent = path.dirname(current);
      if ((err as { code?: unknown }).code !== 'ENOENT' || parent === current) throw err;
      current = parent;
    }
  }
}

export class HostFacts {
  private facts: Promise<StaticHostFacts> | undefined;

  /** `fixed`: facts given instead of read (many simulated agents on one host). */
  constructor(
    private readonly volumeRoot: string,
    fixed?: StaticHostFacts,
  ) {
    if (fixed) this.facts = Promise.resolve({ ...fixed });
  }

  staticFacts(): Promise<StaticHostFacts> {
    this.facts ??= (async () => {
      const [os, cpu, mem] = await Promise.all([si.osInfo(), si.cpu(), si.mem()]);
      const model = [cpu.manufacturer, cpu.brand].filter(Boolean).join(' ').trim();
      return {
        hostname: os.hostname,
        os: [os.distro, os.release].filter(Boolean).join(' ').trim() || os.platform,
        kernel: os.kernel,
        arch: os.arch,
        cpuModel: model,
        cpuCores: cpu.cores,
        memoryTotalBytes: mem.total,
      };
    })();
    // A failed read is retried next time instead of being cached.
    this.facts.catch(() => {
      this.facts = undefined;
    });
    return this.facts;
  }

  disk(): Promise<DiskSpace> {
    return diskSpace(this.volumeRoot);
  }
}
