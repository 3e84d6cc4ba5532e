// The NVIDIA Container Toolkit on a GPU host: the version of each of its parts and the mode of
// the NVIDIA Container Runtime. Every part that handles a GPU container's start runs as root
// on the host (nvidia-container-cli, the OCI hook, the CDI hooks), so each installed part is
// checked against the floor, and parts that disagree (a half-done upgrade) make the host unsafe.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { compareVersions } from './toolkit-versions.js';

/**
 * The default floor. The hardening of the hooks' path handling (the create-symlinks and
 * cudacompat hooks of nvidia-cdi-hook resolve container paths with
 * cyphar/filepath-securejoin's pathrs-lite, merged into release-1.19 from a private security
 * fork on 2026-05-21: "Merge commit from fork", 3e9bab5e) first shipped in v1.19.1
 * (2026-05-21) and is in v1.20.0 (2026-08-12, the newest release); no 1.18.x release carries it
 * (v1.18.2 of 2026-01-21 is the last). The issue tracks it as CVE-2026-24260 (reported July
 * 2026). Versions compare in order, so 1.19.1 admits exactly the releases with the fix.
 * Source: NVIDIA/nvidia-container-toolkit CHANGELOG.md at v1.19.1 and v1.20.0.
 */
export const DEFAULT_MIN_TOOLKIT_VERSION = '1.19.1';
/** The toolkit changes only with an upgrade; its versions are re-read this often. */
export const TOOLKIT_CACHE_MS = 5 * 60_000;
export const TOOLKIT_CONFIG_FILE = '/etc/nvidia-container-runtime/config.toml';

export type ToolkitMode = 'auto' | 'legacy' | 'cdi' | 'csv' | 'jit-cdi' | string;

export interface ToolkitInfo {
  /** nvidia-ctk (the toolkit's CLI); '' = not installed. */
  ctkVersion: string;
  /** nvidia-container-cli (libnvidia-container), the legacy path's worker; '' = not installed. */
  cliVersion: string;
  /** nvidia-container-runtime-hook, the OCI prestart hook of the legacy path; '' = not installed. */
  runtimeHookVersion: string;
  /** nvidia-cdi-hook, the hooks a CDI spec runs; '' = not installed. */
  cdiHookVersion: string;
  /** `mode` under [nvidia-container-runtime] in config.toml; 'auto' when the file does not set it, '' when there is no file. */
  mode: ToolkitMode;
  /** Non-empty when the host must get no GPU work (Chinese, with the detail). */
  unsafeReason: string;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell; rejects when it cannot start, fails or runs too long. */
export type CommandRunner = (file: string, args: string[]) => Promise<CommandResult>;
export type FileReader = (file: string) => Promise<string>;

export function execFileRunner(timeoutMs = 10_000): CommandRunner {
  return (file, args) =>
    new Promise((resolve, reject) => {
      execFile(file, args, { timeout: timeoutMs, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) reject(Object.assign(err, { stderr }));
        else resolve({ stdout, stderr });
      });
    });
}

/**
 * The version a toolkit program prints: `NVIDIA Container Toolkit CLI version 1.17.8`,
 * `NVIDIA Container Runtime Hook version 1.17.8`, `NVIDIA CDI Hook version 1.20.0`,
 * `cli-version: 1.17.5` (nvidia-container-cli); '' when there is none.
 */
export function parsePartVersion(output: string): string {
  return /version:?\s+v?(\d+\.\d+\.\d+(?:[-~][\w.]+)?)/i.exec(output)?.[1] ?? '';
}

/** `mode = "cdi"` in the [nvidia-container-runtime] table of config.toml; 'auto' when unset. */
export function parseToolkitMode(toml: string): ToolkitMode {
  let table = '';
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      table = header[1] ?? '';
      continue;
    }
    if (table !== 'nvidia-container-runtime') continue;
    const mode = /^mode\s*=\s*["']([^"']*)["']$/.exec(line);
    if (mode) return (mode[1] ?? '').trim() || 'auto';
  }
  return 'auto';
}

const PARTS = [
  { key: 'ctkVersion', program: 'nvidia-ctk' },
  { key: 'cliVersion', program: 'nvidia-container-cli' },
  { key: 'runtimeHookVersion', program: 'nvidia-container-runtime-hook' },
  { key: 'cdiHookVersion', program: 'nvidia-cdi-hook' },
] as const;

type Versions = Pick<ToolkitInfo, 'ctkVersion' | 'cliVersion' | 'runtimeHookVersion' | 'cdiHookVersion'>;

/** Why the toolkit's parts make the host unsafe, or '' when they do not. */
export function toolkitPartsUnsafeReason(versions: Versions, floor: string): string {
  const installed = PARTS.map((p) => ({ program: p.program, version: versions[p.key] })).filter(
    (p) => p.version,
  );
  if (installed.length === 0 || (!versions.ctkVersion && !versions.cliVersion)) {
    return '未检测到 NVIDIA Container Toolkit (nvidia-ctk / nvidia-container-cli not found): containers cannot get GPUs';
  }
  const old = installed.filter((p) => compareVersions(p.version, floor) < 0);
  if (old.length > 0) {
    const list = old.map((p) => `${p.program} ${p.version}`).join(', ');
    const lowest = old.reduce((a, b) => (compareVersions(a.version, b.version) <= 0 ? a : b));
    return `NVIDIA Container Toolkit ${lowest.version} 存在容器逃逸漏洞 (${list} below ${floor}: the hooks' path handling is not hardened), 需升级到 ${floor} 或更高`;
  }
  const distinct = new Set(installed.map((p) => p.version.split(/[-~]/)[0]));
  if (distinct.size > 1) {
    const list = installed.map((p) => `${p.program} ${p.version}`).join(', ');
    return `NVIDIA Container Toolkit 各组件版本不一致, 升级未完成 (${list}): 请将全部组件升级到同一版本`;
  }
  return '';
}

export interface ToolkitProbeOptions {
  run?: CommandRunner;
  readFile?: FileReader;
  /** The lowest toolkit version GPU work may run on. */
  minVersion?: string;
  cacheMs?: number;
  configFile?: string;
  now?: () => number;
}

export class ToolkitProbe {
  private readonly run: CommandRunner;
  private readonly readFile: FileReader;
  readonly minVersion: string;
  private readonly cacheMs: number;
  private readonly configFile: string;
  private readonly now: () => number;
  private cached: { at: number; info: Promise<ToolkitInfo> } | undefined;

  constructor(options: ToolkitProbeOptions = {}) {
    this.run = options.run ?? execFileRunner();
    this.readFile = options.readFile ?? ((file) => fs.readFile(file, 'utf8'));
    this.minVersion = options.minVersion ?? DEFAULT_MIN_TOOLKIT_VERSION;
    this.cacheMs = options.cacheMs ?? TOOLKIT_CACHE_MS;
    this.configFile = options.configFile ?? TOOLKIT_CONFIG_FILE;
    this.now = options.now ?? Date.now;
  }

  /** The toolkit as read at most `cacheMs` ago. */
  info(): Promise<ToolkitInfo> {
    const now = this.now();
    if (this.cached && now - this.cached.at < this.cacheMs) return this.cached.info;
    const info = this.read();
    this.cached = { at: now, info };
    // A failed read is retried next time instead of being cached.
    info.catch(() => {
      if (this.cached?.info === info) this.cached = undefined;
    });
    return info;
  }

  private async version(program: string): Promise<string> {
    try {
      const { stdout, stderr } = await this.run(program, ['--version']);
      return parsePartVersion(`${stdout}\n${stderr}`);
    } catch {
      return ''; // not installed (or not runnable): reported as missing
    }
  }

  private async mode(): Promise<ToolkitMode> {
    try {
      return parseToolkitMode(await this.readFile(this.configFile));
    } catch {
      return '';
    }
  }

  private async read(): Promise<ToolkitInfo> {
    const [ctkVersion, cliVersion, runtimeHookVersion, cdiHookVersion, mode] = await Promise.all([
      ...PARTS.map((p) => this.version(p.program)),
      this.mode(),
    ]);
    const versions = {
      ctkVersion: ctkVersion ?? '',
      cliVersion: cliVersion ?? '',
      runtimeHookVersion: runtimeHookVersion ?? '',
      cdiHookVersion: cdiHookVersion ?? '',
    };
    return {
      ...versions,
      mode: mode ?? '',
      unsafeReason: toolkitPartsUnsafeReason(versions, this.minVersion),
    };
  }
}
