// Pure parsers for nvidia-smi output, tested on real captures (test/fixtures/nvidia-smi).
// nvidia-smi's CSV has no quoting; missing values read "[N/A]", "N/A", "[Not Supported]" or
// nothing, and a GPU in trouble reads "[GPU requires reset]", "[Unknown Error]", "[GPU is lost]":
// those never count as 0 silently, they make the GPU unhealthy.
import type { GpuDevice } from './gpu-probe.js';

/** Fields every driver the agent supports knows; always asked for. */
export const BASE_FIELDS = [
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
  'pci.bus_id',
  'persistence_mode',
] as const;

/**
 * Health fields newer drivers add (gpu_recovery_action since R550, fabric.* on NVSwitch-era
 * drivers). An older driver refuses the whole query for one unknown field
 * (`Field "x" is not a valid field to query.`), so these are asked only when
 * `nvidia-smi --help-query-gpu` lists them.
 */
export const HEALTH_FIELDS = [
  'mig.mode.current',
  'fabric.state',
  'fabric.status',
  'remapped_rows.pending',
  'remapped_rows.failure',
  'ecc.errors.uncorrected.volatile.total',
  'gpu_recovery_action',
] as const;

/** Everything the probe would like to ask. */
export const QUERY_FIELDS = [...BASE_FIELDS, ...HEALTH_FIELDS] as const;

/** The fields of one `--query-gpu`: the base ones, and the health ones the driver lists. */
export function queryFieldsFor(supported: ReadonlySet<string> | undefined): string[] {
  const health = supported ? HEALTH_FIELDS.filter((field) => supported.has(field)) : [];
  return [...BASE_FIELDS, ...health];
}

/**
 * The field names `nvidia-smi --help-query-gpu` lists: lines such as `"pci.bus_id" or
 * "gpu_bus_id"` (each alias counts). An empty set when the output is not such a list.
 */
export function parseHelpQueryGpu(output: string): Set<string> {
  const fields = new Set<string>();
  for (const line of output.split(/\r?\n/)) {
    if (!/^"[\w.]+"(?:\s+or\s+"[\w.]+")*\s*$/.test(line)) continue;
    for (const m of line.matchAll(/"([\w.]+)"/g)) fields.add(m[1] as string);
  }
  return fields;
}

function cells(line: string): string[] {
  return line.split(',').map((cell) => cell.trim());
}

/** A header cell is a field name, optionally with its unit: `memory.total [MiB]`. */
function fieldName(cell: string): string {
  return cell.replace(/\s*\[[^\]]*\]$/, '');
}

function isHeader(row: string[]): boolean {
  return row.some((cell) => /^(index|uuid|name|gpu_name|gpu_uuid)$/.test(fieldName(cell)));
}

/** A number out of a cell such as `81559 MiB`, `69.85 W`, `0 %`, `41`; undefined when not available. */
export function parseNumber(cell: string | undefined): number | undefined {
  if (cell === undefined) return undefined;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(?:[A-Za-z%]+)?\s*$/.exec(cell);
  return m ? Number(m[1]) : undefined;
}

/** `[N/A]`, `N/A`, `[Not Supported]`, `Not Supported`, '' : the value does not exist here. */
function isAbsent(cell: string | undefined): boolean {
  return (
    cell === undefined ||
    cell === '' ||
    /^\[?(N\/A|Not Supported|Not Available|Requested functionality has been deprecated)\]?$/i.test(cell)
  );
}

/** A cell in brackets that is not mere absence: nvidia-smi could not read the value. */
function readError(cell: string | undefined): string {
  if (cell === undefined || isAbsent(cell)) return '';
  const m = /^\[(.+)\]$/.exec(cell);
  return m ? (m[1] as string) : '';
}

function text(cell: string | undefined): string {
  if (isAbsent(cell) || readError(cell)) return '';
  return cell as string;
}

/** Cells whose read error means the GPU itself is in trouble (not a sensor a card lacks). */
const VITAL_FIELDS = [
  'uuid',
  'name',
  'memory.total',
  'memory.used',
  'utilization.gpu',
  'utilization.memory',
  'temperature.gpu',
];

/** What `gpu_recovery_action` asks for, in the operator's words. */
const RECOVERY_ACTIONS: Record<string, string> = {
  reset: '需要重置 GPU',
  'gpu reset': '需要重置 GPU',
  reboot: '需要重启节点',
  'node reboot': '需要重启节点',
  'drain p2p': '需要停止 P2P 流量后恢复',
  'drain and reset': '需要排空任务并重置 GPU',
};

/**
 * Why the GPU of one query row must not be rented, or '' (Chinese, with nvidia-smi's words in
 * parentheses). `get` returns the raw cell of a field, undefined when it was not asked.
 */
export function healthProblemOf(get: (field: string) => string | undefined, fields: string[]): string {
  const problems: string[] = [];
  const errors = fields.map((field) => [field, readError(get(field))] as const).filter(([, e]) => e);
  if (errors.some(([, e]) => /requires reset/i.test(e))) {
    problems.push('GPU 需要重置 (GPU requires reset)');
  } else if (errors.some(([, e]) => /GPU is lost/i.test(e))) {
    problems.push('GPU 已丢失, 需要管理员处理 (GPU is lost)');
  } else {
    const vital = errors.filter(([field]) => VITAL_FIELDS.includes(field));
    if (vital.length > 0) {
      const detail = vital.map(([field, e]) => `${field}: ${e}`).join(', ');
      problems.push(`nvidia-smi 无法读取 GPU 状态 (${detail})`);
    }
  }
  const recovery = text(get('gpu_recovery_action'));
  if (recovery && !/^none$/i.test(recovery)) {
    const action = RECOVERY_ACTIONS[recovery.toLowerCase()] ?? '需要管理员处理';
    problems.push(`GPU 驱动要求恢复操作: ${action} (gpu_recovery_action: ${recovery})`);
  }
  if (/^yes$/i.test(text(get('remapped_rows.failure')))) {
    problems.push('GPU 显存行重映射失败, 需要更换或维修 (remapped_rows.failure: Yes)');
  }
  if (/^yes$/i.test(text(get('remapped_rows.pending')))) {
    problems.push('GPU 有待生效的显存行重映射, 需要重置 GPU (remapped_rows.pending: Yes)');
  }
  const ecc = parseNumber(get('ecc.errors.uncorrected.volatile.total'));
  if (ecc !== undefined && ecc > 0) {
    problems.push(
      `GPU 出现 ${ecc} 个不可纠正的 ECC 错误, 需要重置 GPU (ecc.errors.uncorrected.volatile.total: ${ecc})`,
    );
  }
  const fabricState = text(get('fabric.state'));
  const fabricStatus = text(get('fabric.status'));
  if (/^completed$/i.test(fabricState) && fabricStatus && !/^success$/i.test(fabricStatus)) {
    problems.push(`NVLink fabric 注册失败 (fabric.status: ${fabricStatus})`);
  }
  return problems.join('; ');
}

export interface GpuQueryResult {
  gpus: GpuDevice[];
  /** Rows nvidia-smi printed for a GPU it could not read at all (no uuid): one per such GPU. */
  unreadableRows: number;
}

/**
 * Parses `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]`. With a header line the
 * columns are found by name (any order, any extra fields); without one, `fields` gives the order.
 * Topology fields (numaNode, nvlinkPeers) are left unknown: the probe fills them.
 */
export function parseGpuQuery(output: string, fields: readonly string[] = QUERY_FIELDS): GpuQueryResult {
  const rows = output
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map(cells);
  let names: string[] = [...fields];
  const first = rows[0];
  if (first && isHeader(first)) {
    names = first.map(fieldName).map((name) => ALIASES[name] ?? name);
    rows.shift();
  }
  const gpus: GpuDevice[] = [];
  let unreadableRows = 0;
  rows.forEach((row, position) => {
    if (row.length !== names.length) return; // not a row of this query (a warning line)
    const raw = (key: string) => {
      const i = names.indexOf(key);
      return i >= 0 ? row[i] : undefined;
    };
    const num = (...keys: string[]) => {
      for (const key of keys) {
        const value = parseNumber(raw(key));
        if (value !== undefined) return value;
      }
      return 0;
    };
    const uuidCell = raw('uuid');
    if (names.includes('uuid') && !/^GPU-/i.test(uuidCell ?? '')) {
      // "Unable to determine the device handle for GPU0000:02:00.0: Unknown Error" and a row
      // of [Unknown Error]: a GPU that cannot be named, so it cannot be listed here.
      unreadableRows++;
      return;
    }
    gpus.push({
      index: parseNumber(raw('index')) ?? position,
      uuid: text(uuidCell),
      model: text(raw('name')),
      memoryTotalMib: num('memory.total'),
      memoryUsedMib: num('memory.used'),
      utilizationPercent: num('utilization.gpu'),
      memoryUtilizationPercent: num('utilization.memory'),
      temperatureC: num('temperature.gpu'),
      powerDrawW: num('power.draw', 'power.draw.average', 'power.draw.instant'),
      powerLimitW: num('power.limit', 'enforced.power.limit'),
      pciBusId: text(raw('pci.bus_id')),
      healthProblem: healthProblemOf(raw, names),
      // Only an explicit "Disabled" is off: Windows and old drivers print [N/A].
      persistenceMode: !/^disabled$/i.test(raw('persistence_mode') ?? ''),
      migEnabled: /^enabled$/i.test(raw('mig.mode.current') ?? ''),
      fabricState: text(raw('fabric.state')),
      numaNode: -1,
      nvlinkPeers: [],
    });
  });
  return { gpus, unreadableRows };
}

/** The header names nvidia-smi also accepts, mapped to the ones the parser uses. */
const ALIASES: Record<string, string> = {
  gpu_name: 'name',
  gpu_uuid: 'uuid',
  gpu_bus_id: 'pci.bus_id',
};

/** The GPUs of a `--query-gpu` output (see parseGpuQuery). */
export function parseGpuCsv(output: string, fields: readonly string[] = QUERY_FIELDS): GpuDevice[] {
  return parseGpuQuery(output, fields).gpus;
}

export interface ListedGpu {
  index: number;
  model: string;
  uuid: string;
}

/** `nvidia-smi -L`: `GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)`; MIG device lines are skipped. */
export function parseGpuList(output: string): ListedGpu[] {
  const gpus: ListedGpu[] = [];
  for (const line of output.split(/\r?\n/)) {
    const m = /^GPU (\d+): (.*?) \(UUID: (GPU-[\w-]+)\)\s*$/.exec(line);
    if (m) gpus.push({ index: Number(m[1]), model: m[2] as string, uuid: m[3] as string });
  }
  return gpus;
}

export interface DriverVersions {
  driverVersion: string;
  cudaVersion: string;
}

/**
 * Reads the versions from the `nvidia-smi` table header or from `nvidia-smi --version`. Driver
 * 610 renamed them: `KMD Version` / `CUDA UMD Version` (and its `--version` prints
 * `DRIVER version : Deprecated, see "KMD version" instead`, which is skipped: no digits).
 */
export function parseDriverVersions(output: string): DriverVersions {
  const driver = /(?:KMD|Driver) Version\s*:?\s*(\d[\w.-]*)/i.exec(output);
  const cuda = /CUDA (?:UMD )?Version\s*:?\s*(\d[\d.]*)/i.exec(output);
  return { driverVersion: driver?.[1] ?? '', cudaVersion: cuda?.[1] ?? '' };
}

/** The operator warning for GPUs with persistence mode off, or '' when none is. */
export function persistenceWarning(gpus: readonly GpuDevice[]): string {
  const off = gpus.filter((gpu) => !gpu.persistenceMode).map((gpu) => gpu.index);
  if (off.length === 0) return '';
  return `GPU ${off.join(', ')} 未开启持久模式 (persistence mode off): 容器启动可能变慢或超时, 建议运行 nvidia-smi -pm 1 或启用 nvidia-persistenced`;
}

/**
 * A PCI address in one form for comparison: nvidia-smi's `00000000:3B:00.0` and the kernel's
 * `0000:3b:00` (Xid lines) both become `0000:3b:00`; '' when it is not one.
 */
export function normalizePciBusId(address: string): string {
  const m = /^(?:PCI:)?(?:([0-9a-f]{1,8}):)?([0-9a-f]{1,2}):([0-9a-f]{1,2})(?:\.[0-7])?$/i.exec(
    address.trim(),
  );
  if (!m) return '';
  const domain = Number.parseInt(m[1] ?? '0', 16)
    .toString(16)
    .padStart(4, '0');
  return `${domain}:${(m[2] as string).toLowerCase().padStart(2, '0')}:${(m[3] as string).toLowerCase().padStart(2, '0')}`;
}
