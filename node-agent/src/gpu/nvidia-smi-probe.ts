// GPU probe of a real NVIDIA host: nvidia-smi for the GPUs and versions, nvidia-ctk (or
// nvidia-container-toolkit) for the Container Toolkit version that decides whether the host
// is safe for GPU work.
import { execFile } from 'node:child_process';
import { errorMessage } from '../errors.js';
import type { GpuDevice, GpuInventory, GpuProbe } from './gpu-probe.js';
import {
  parseDriverVersions,
  parseGpuCsv,
  parseToolkitVersion,
  QUERY_FIELDS,
  toolkitUnsafeReason,
} from './nvidia-smi-parse.js';

export interface CommandResult {
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell; rejects when it cannot start, fails or runs too long. */
export type CommandRunner = (file: string, args: string[]) => Promise<CommandResult>;

export function execFileRunner(timeoutMs = 10_000): CommandRunner {
  return (file, args) =>
    new Promise((resolve, reject) => {
      execFile(file, args, { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) reject(Object.assign(err, { stderr }));
        else resolve({ stdout, stderr });
      });
    });
}

const QUERY_ARGS = [`--query-gpu=${QUERY_FIELDS.join(',')}`, '--format=csv,noheader,nounits'];
/** Versions change only with a driver or toolkit upgrade; re-read them now and then. */
const VERSION_CACHE_MS = 5 * 60_000;

interface Versions {
  driverVersion: string;
  cudaVersion: string;
  containerToolkitVersion: string;
  at: number;
}

export class NvidiaSmiProbe implements GpuProbe {
  readonly simulated = false;
  private versions: Versions | undefined;

  constructor(private readonly run: CommandRunner = execFileRunner()) {}

  async sample(): Promise<GpuDevice[]> {
    const { stdout } = await this.run('nvidia-smi', QUERY_ARGS);
    return parseGpuCsv(stdout);
  }

  private async toolkitVersion(): Promise<string> {
    for (const [file, args] of [
      ['nvidia-ctk', ['--version']],
      ['nvidia-container-toolkit', ['--version']],
    ] as const) {
      try {
        const { stdout, stderr } = await this.run(file, [...args]);
        const version = parseToolkitVersion(`${stdout}\n${stderr}`);
        if (version) return version;
      } catch {
        // not installed under this name: try the next one; none found is reported as unsafe
      }
    }
    return '';
  }

  private async readVersions(): Promise<Versions> {
    if (this.versions && Date.now() - this.versions.at < VERSION_CACHE_MS) return this.versions;
    const { stdout } = await this.run('nvidia-smi', []);
    const { driverVersion, cudaVersion } = parseDriverVersions(stdout);
    this.versions = {
      driverVersion,
      cudaVersion,
      containerToolkitVersion: await this.toolkitVersion(),
      at: Date.now(),
    };
    return this.versions;
  }

  async inventory(): Promise<GpuInventory> {
    try {
      const [gpus, versions] = await Promise.all([this.sample(), this.readVersions()]);
      return {
        gpus,
        driverVersion: versions.driverVersion,
        cudaVersion: versions.cudaVersion,
        containerToolkitVersion: versions.containerToolkitVersion,
        simulated: false,
        unsafeReason: gpus.length > 0 ? toolkitUnsafeReason(versions.containerToolkitVersion) : '',
      };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      // No nvidia-smi at all: a host without NVIDIA GPUs (it can still run GPU-less containers).
      if (code === 'ENOENT') return emptyInventory('');
      return emptyInventory(
        `nvidia-smi 运行失败, 节点暂不接受 GPU 任务 (nvidia-smi failed: ${errorMessage(err)})`,
      );
    }
  }
}

function emptyInventory(unsafeReason: string): GpuInventory {
  return {
    gpus: [],
    driverVersion: '',
    cudaVersion: '',
    containerToolkitVersion: '',
    simulated: false,
    unsafeReason,
  };
}
