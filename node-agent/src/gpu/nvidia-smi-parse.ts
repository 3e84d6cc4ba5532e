// Pure parsers for nvidia-smi and NVIDIA Container Toolkit output, tested on real captures
// (test/fixtures/nvidia-smi). nvidia-smi's CSV has no quoting; missing values read
// "[N/A]", "N/A", "[Not Supported]", "[Unknown Error]" or nothing.
import type { GpuDevice } from './gpu-probe.js';

/** The fields the probe asks for, in this order (`--format=csv,noheader,nounits`). */
export const QUERY_FIELDS = [
  'index',
  'uuid',
  'name',
  'memory.total',
  'memory.used',
  'utilization.gpu',
  'utilization.memory',
  'temperature.gpu',
  'power.draw',
  'power.limit',
] as const;

/** The first toolkit release without the container-escape bugs CVE-2025-23266 and CVE-2025-23267. */
export const MIN_SAFE_TOOLKIT_VERSION = '1.17.8';

function cells(line: string): string[] {
  return line.split(',').map((cell) => cell.trim());
}

/** A header cell is a field name, optionally with its unit: `memory.total [MiB]`. */
function isHeader(row: string[]): boolean {
  return row.some((cell) => /^(index|uuid|name)$/.test(cell.replace(/\s*\[[^\]]*\]$/, '')));
}

/** A number out of a cell such as `81559 MiB`, `69.85 W`, `0 %`, `41`; undefined when not available. */
export function parseNumber(cell: string | undefined): number | undefined {
  if (cell === undefined) return undefined;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(?:[A-Za-z%]+)?\s*$/.exec(cell);
  return m ? Number(m[1]) : undefined;
}

function text(cell: string | undefined): string {
  if (cell === undefined || cell === '' || /^\[.*\]$/.test(cell) || cell === 'N/A') return '';
  return cell;
}

/**
 * Parses `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]`. With a header line the
 * columns are found by name (any order, any extra fields); without one, `fields` gives the order.
 */
export function parseGpuCsv(output: string, fields: readonly string[] = QUERY_FIELDS): GpuDevice[] {
  const rows = output
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map(cells);
  let names: string[] = [...fields];
  const first = rows[0];
  if (first && isHeader(first)) {
    names = first.map((cell) => cell.replace(/\s*\[[^\]]*\]$/, ''));
    rows.shift();
  }
  const gpus: GpuDevice[] = [];
  rows.forEach((row, position) => {
    if (row.length !== names.length) return; // not a row of this query (a warning line)
    const get = (...keys: string[]) => {
      for (const key of keys) {
        const i = names.indexOf(key);
        if (i >= 0 && parseNumber(row[i]) !== undefined) return row[i];
      }
      return undefined;
    };
    const raw = (key: string) => row[names.indexOf(key)];
    const num = (...keys: string[]) => parseNumber(get(...keys)) ?? 0;
    gpus.push({
      index: parseNumber(raw('index')) ?? position,
      uuid: text(raw('uuid')),
      model: text(raw('name')),
      memoryTotalMib: num('memory.total'),
      memoryUsedMib: num('memory.used'),
      utilizationPercent: num('utilization.gpu'),
      memoryUtilizationPercent: num('utilization.memory'),
      temperatureC: num('temperature.gpu'),
      powerDrawW: num('power.draw', 'power.draw.average', 'power.draw.instant'),
      powerLimitW: num('power.limit', 'enforced.power.limit'),
    });
  });
  return gpus;
}

export interface DriverVersions {
  driverVersion: string;
  cudaVersion: string;
}

/** Reads the versions from the `nvidia-smi` table header or from `nvidia-smi --version`. */
export function parseDriverVersions(output: string): DriverVersions {
  const driver = /Driver Version\s*:?\s*(\d[\w.-]*)/i.exec(output);
  const cuda = /CUDA Version\s*:?\s*(\d[\d.]*)/i.exec(output);
  return { driverVersion: driver?.[1] ?? '', cudaVersion: cuda?.[1] ?? '' };
}

/** `NVIDIA Container Toolkit CLI version 1.17.8` / `NVIDIA Container Runtime Hook version 1.17.8`. */
export function parseToolkitVersion(output: string): string {
  return /version\s+v?(\d+\.\d+\.\d+(?:[-~][\w.]+)?)/i.exec(output)?.[1] ?? '';
}

/** Compares dotted numeric versions (`1.17.8` < `1.17.10`); pre-release suffixes are ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[-~]/)[0]!
      .split('.')
      .map((p) => Number.parseInt(p, 10) || 0);
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
