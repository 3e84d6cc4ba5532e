// What is inside a saved image (ImageContents: the control plane's imageContents in
// control-plane/src/modules/images/contract.ts has the same shape), read at save time from
// short-lived sandbox containers of the image and of its base: no network, no GPUs, a read-only
// root, little memory, each tool under a timeout. The tools run under the toolbox's shell
// (mounted read-only, as in every container), so an image without a shell or a libc is read
// as well; what an image lacks (or a tool that fails or times out) is null, never a failed save.

import { TOOLBOX_MOUNT, TOOLBOX_SH } from '../containers/toolbox.js';
import type { ContainerClient, ImageDetails, ImageHistoryEntry } from '../docker/container-client.js';
import { errorMessage } from '../errors.js';

export interface PackageVersion {
  name: string;
  version: string;
}

export interface ImageContents {
  os: { id: string; version_id: string; pretty_name: string } | null;
  python: string | null;
  cuda: string | null;
  cudnn: string | null;
  pip: PackageVersion[] | null;
  conda: PackageVersion[] | null;
  apt: PackageVersion[] | null;
  apt_added: PackageVersion[] | null;
  base: { image: string; digest: string };
  layers: Array<{ created_by: string; size_bytes: number; added: boolean }>;
  added_bytes: number;
}

/** Label of the sandbox containers (found and removed by it should a removal fail). */
export const SANDBOX_LABEL = 'gpucloud.sandbox';
const SANDBOX_MEMORY_BYTES = 512 * 1024 ** 2;
/** The sandbox ends by itself after this, whatever happens to the agent. */
const SANDBOX_LIFETIME_SECONDS = 600;

/** Each tool's time limit (seconds): the package managers start an interpreter, the rest read files. */
export const TOOL_TIMEOUTS = { quick: 15, packages: 60 };

const TOOLS = {
  os: 'cat /etc/os-release 2>/dev/null || cat /usr/lib/os-release',
  python: 'python3 --version 2>&1 || python --version 2>&1',
  cuda:
    'if [ -f /usr/local/cuda/version.json ]; then cat /usr/local/cuda/version.json; ' +
    'elif [ -f /usr/local/cuda/version.txt ]; then cat /usr/local/cuda/version.txt; ' +
    'elif [ -x /usr/local/cuda/bin/nvcc ]; then /usr/local/cuda/bin/nvcc --version; ' +
    'else nvcc --version; fi',
  cudnn:
    'cat /usr/include/cudnn_version*.h /usr/include/*/cudnn_version*.h /usr/local/cuda/include/cudnn_version*.h 2>/dev/null | grep -E "#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) " ; ' +
    'ls /usr/lib/*/libcudnn.so.* /usr/lib64/libcudnn.so.* /usr/local/cuda/lib64/libcudnn.so.* 2>/dev/null; true',
  pip:
    'PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 python3 -m pip list --format=freeze 2>/dev/null || ' +
    'PIP_DISABLE_PIP_VERSION_CHECK=1 pip list --format=freeze 2>/dev/null',
  conda:
    'if command -v conda >/dev/null 2>&1; then conda list --export; else /opt/conda/bin/conda list --export; fi',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format, not JavaScript
  dpkg: "dpkg-query -W -f '${Package}\\t${Version}\\n'",
} as const;

const byName = (a: PackageVersion, b: PackageVersion) => a.name.localeCompare(b.name);

export function parseOsRelease(text: string): ImageContents['os'] {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) values[m[1]!] = m[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  if (!values.ID) return null;
  return { id: values.ID, version_id: values.VERSION_ID ?? '', pretty_name: values.PRETTY_NAME ?? '' };
}

export function parsePython(text: string): string | null {
  return /Python (\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1] ?? null;
}

export function parseCuda(text: string, env: string[]): string | null {
  const json = /"cuda"\s*:\s*\{[^}]*?"version"\s*:\s*"(\d+(?:\.\d+)*)"/.exec(text);
  const txt = /CUDA Version (\d+(?:\.\d+)*)/.exec(text);
  const nvcc = /, V(\d+(?:\.\d+)*)/.exec(text) ?? /release (\d+\.\d+)/.exec(text);
  const fromEnv = envValue(env, 'CUDA_VERSION');
  return json?.[1] ?? txt?.[1] ?? nvcc?.[1] ?? (fromEnv || null);
}

export function parseCudnn(text: string, env: string[]): string | null {
  const define = (name: string) => new RegExp(`#define CUDNN_${name}\\s+(\\d+)`).exec(text)?.[1];
  const [major, minor, patch] = [define('MAJOR'), define('MINOR'), define('PATCHLEVEL')];
  if (major !== undefined && minor !== undefined) return [major, minor, patch ?? '0'].join('.');
  const lib = /libcudnn\.so\.(\d+\.\d+\.\d+)/.exec(text)?.[1];
  const fromEnv = envValue(env, 'CUDNN_VERSION');
  return lib ?? (fromEnv || null);
}

/** `name==version` lines (pip list --format=freeze). */
export function parsePip(text: string): PackageVersion[] {
  const out: PackageVersion[] = [];
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$/.exec(line.trim());
    if (m) out.push({ name: m[1]!, version: m[2]! });
  }
  return out.sort(byName);
}

/** `name=version=build` lines (conda list --export), comments skipped. */
export function parseConda(text: string): PackageVersion[] {
  const out: PackageVersion[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [name, version] = trimmed.split('=');
    if (name && version) out.push({ name, version });
  }
  return out.sort(byName);
}

/** `package\tversion` lines (dpkg-query -W). */
export function parseDpkg(text: string): PackageVersion[] {
  const out: PackageVersion[] = [];
  for (const line of text.split('\n')) {
    const [name, version] = line.split('\t');
    if (name?.trim() && version?.trim()) out.push({ name: name.trim(), version: version.trim() });
  }
  return out.sort(byName);
}

/** Packages of `now` that `base` lacks or has at another version. */
export function addedPackages(now: PackageVersion[], base: PackageVersion[]): PackageVersion[] {
  const before = new Map(base.map((p) => [p.name, p.version]));
  return now.filter((p) => before.get(p.name) !== p.version);
}

function envValue(env: string[], key: string): string {
  const entry = env.find((e) => e.startsWith(`${key}=`));
  return entry ? entry.slice(key.length + 1) : '';
}

/**
 * The digest an image is known by: its registry digest (the one of the repository it is named
 * by, where it has one), else its id.
 */
export function baseDigest(details: ImageDetails | undefined, ref = ''): string {
  const named = ref.replace(/(@.*|:[^/:]*)$/, '');
  const digests = details?.repoDigests.filter((d) => d.includes('@')) ?? [];
  const repoDigest = digests.find((d) => d.slice(0, d.indexOf('@')) === named) ?? digests[0];
  if (repoDigest) return repoDigest.slice(repoDigest.indexOf('@') + 1);
  return details?.id ?? '';
}

/** The saved image's layers, newest first: the ones past the base's history are `added`. */
export function layersOf(
  history: ImageHistoryEntry[],
  baseHistoryLength: number,
): Pick<ImageContents, 'layers' | 'added_bytes'> {
  const addedCount = Math.max(0, history.length - baseHistoryLength);
  const layers = history.map((entry, i) => ({
    created_by: entry.createdBy || entry.comment,
    size_bytes: entry.sizeBytes,
    added: i < addedCount,
  }));
  return { layers, added_bytes: layers.filter((l) => l.added).reduce((sum, l) => sum + l.size_bytes, 0) };
}

export interface ContentsDeps {
  client: ContainerClient;
  /** The toolbox folder on the host (its shell runs the tools). */
  toolboxPath: string;
  log?: (line: string) => void;
  timeouts?: { quick: number; packages: number };
}

type ToolOutput = (tool: keyof typeof TOOLS) => Promise<string | null>;

/** Runs `use` with a sandbox of `image` whose tools answer through the toolbox's shell; removes it after. */
async function withSandbox<T>(
  deps: ContentsDeps,
  image: string,
  use: (run: ToolOutput) => Promise<T>,
): Promise<T> {
  const timeouts = deps.timeouts ?? TOOL_TIMEOUTS;
  const id = await deps.client.startSandbox({
    image,
    entrypoint: [`${TOOLBOX_MOUNT}/bin/busybox`, 'sleep', String(SANDBOX_LIFETIME_SECONDS)],
    command: [],
    binds: [{ source: deps.toolboxPath, target: TOOLBOX_MOUNT, readOnly: true }],
    memoryBytes: SANDBOX_MEMORY_BYTES,
    labels: { [SANDBOX_LABEL]: 'image-contents' },
  });
  const run: ToolOutput = async (tool) => {
    const seconds =
      tool === 'pip' || tool === 'conda' || tool === 'dpkg' ? timeouts.packages : timeouts.quick;
    try {
      // `timeout` (a toolbox applet) ends a tool that hangs; its shell then exits non-zero.
      const result = await deps.client.exec(id, [
        TOOLBOX_SH,
        '-c',
        `exec timeout "$0" ${TOOLBOX_SH} -c "$1"`,
        String(seconds),
        TOOLS[tool],
      ]);
      return result.exitCode === 0 ? result.stdout : null;
    } catch (err) {
      deps.log?.(`reading ${tool} of ${image} failed: ${errorMessage(err)}`);
      return null;
    }
  };
  try {
    return await use(run);
  } finally {
    await deps.client
      .removeContainer(id, true)
      .catch((err: unknown) => deps.log?.(`removing the sandbox ${id} failed: ${errorMessage(err)}`));
  }
}

export interface ContentsInput {
  /** The saved image (as the engine holds it). */
  image: string;
  details: ImageDetails;
  history: ImageHistoryEntry[];
  /** The base image's reference, its details and history where the node holds it. */
  base: { ref: string; details: ImageDetails | undefined; historyLength: number };
}

export async function readImageContents(deps: ContentsDeps, input: ContentsInput): Promise<ImageContents> {
  const env = Array.isArray(input.details.config.Env) ? (input.details.config.Env as string[]) : [];
  const read = await withSandbox(deps, input.image, async (run) => {
    const os = await run('os');
    const python = await run('python');
    const cuda = await run('cuda');
    const cudnn = await run('cudnn');
    const pip = python === null ? null : await run('pip');
    const conda = await run('conda');
    const dpkg = await run('dpkg');
    return { os, python, cuda, cudnn, pip, conda, dpkg };
  });
  const apt = read.dpkg === null ? null : parseDpkg(read.dpkg);
  let baseApt: PackageVersion[] | null = null;
  if (apt && input.base.details) {
    baseApt = await withSandbox(deps, input.base.details.id, async (run) => {
      const dpkg = await run('dpkg');
      return dpkg === null ? [] : parseDpkg(dpkg);
    }).catch((err: unknown) => {
      deps.log?.(`reading the packages of ${input.base.ref} failed: ${errorMessage(err)}`);
      return null;
    });
  }
  const parsedPip = read.pip === null ? null : parsePip(read.pip);
  const parsedConda = read.conda === null ? null : parseConda(read.conda);
  return {
    os: read.os === null ? null : parseOsRelease(read.os),
    python: read.python === null ? null : parsePython(read.python),
    cuda: parseCuda(read.cuda ?? '', env),
    cudnn: parseCudnn(read.cudnn ?? '', env),
    pip: parsedPip && parsedPip.length > 0 ? parsedPip : null,
    conda: parsedConda && parsedConda.length > 0 ? parsedConda : null,
    apt: apt && apt.length > 0 ? apt : null,
    apt_added: apt && apt.length > 0 && baseApt ? addedPackages(apt, baseApt) : null,
    base: { image: input.base.ref, digest: baseDigest(input.base.details, input.base.ref) },
    ...layersOf(input.history, input.base.historyLength),
  };
}
