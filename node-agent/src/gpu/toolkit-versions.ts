// Pure version helpers for the NVIDIA Container Toolkit (`nvidia-ctk --version`), used by
// toolkit.ts; tested on real captures (test/fixtures/nvidia-smi/nvidia-ctk__*).

/** The first toolkit release without the container-escape bugs CVE-2025-23266 and CVE-2025-23267. */
export const MIN_SAFE_TOOLKIT_VERSION = '1.17.8';

/** `NVIDIA Container Toolkit CLI version 1.17.8` / `NVIDIA Container Runtime Hook version 1.17.8`. */
export function parseToolkitVersion(output: string): string {
  return /version\s+v?(\d+\.\d+\.\d+(?:[-~][\w.]+)?)/i.exec(output)?.[1] ?? '';
}

/** Compares dotted numeric versions (`1.17.8` < `1.17.10`); pre-release suffixes are ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => (v.split(/[-~]/)[0] ?? '').split('.').map((p) => Number.parseInt(p, 10) || 0);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Why a host must get no GPU work, or '' when it may. */
export function toolkitUnsafeReason(toolkitVersion: string): string {
  if (!toolkitVersion) {
    return '未检测到 NVIDIA Container Toolkit (nvidia-ctk / nvidia-container-toolkit not found): containers cannot get GPUs';
  }
  if (compareVersions(toolkitVersion, MIN_SAFE_TOOLKIT_VERSION) < 0) {
    return `NVIDIA Container Toolkit ${toolkitVersion} 存在容器逃逸漏洞 (CVE-2025-23266), 需升级到 ${MIN_SAFE_TOOLKIT_VERSION} 或更高`;
  }
  return '';
}
