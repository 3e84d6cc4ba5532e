// `nvidia-smi topo -m`: the GPU-to-GPU link matrix (X, NV#, PIX, PXB, PHB, NODE, SYS) with the
// `CPU Affinity` and `NUMA Affinity` columns. NIC rows and columns and the legend are skipped.
// Columns are tab-separated on a terminal but often pasted with spaces, and newer drivers
// underline the header with ANSI escapes: the parser splits on any whitespace.

export interface GpuTopology {
  /** nvidia-smi's index of the GPU (the probe maps it to the uuid). */
  index: number;
  /** NUMA node from `NUMA Affinity`; -1 when not reported (N/A, old drivers). */
  numaNode: number;
  /** Indices of the GPUs this one reaches over NVLink (NV# cells). */
  nvlinkPeers: number[];
  /** CPUs near the GPU (`0-47,96-143`), '' when not reported. */
  cpuAffinity: string;
}

const MULTI_WORD_COLUMNS: [RegExp, string][] = [
  [/CPU Affinity/g, 'CPU_Affinity'],
  [/NUMA Affinity/g, 'NUMA_Affinity'],
  [/GPU NUMA ID/g, 'GPU_NUMA_ID'],
];

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Parses `nvidia-smi topo -m`; an empty list when the output has no matrix. */
export function parseTopology(output: string): GpuTopology[] {
  const lines = output.replace(ANSI, '').split(/\r?\n/);
  const headerAt = lines.findIndex((line) => /^\s+GPU0(\s|$)/.test(line));
  if (headerAt < 0) return [];
  let header = lines[headerAt] as string;
  for (const [pattern, name] of MULTI_WORD_COLUMNS) header = header.replace(pattern, name);
  const columns = header.trim().split(/\s+/);
  const affinityAt = columns.indexOf('CPU_Affinity');
  const devices = affinityAt >= 0 ? columns.slice(0, affinityAt) : columns;
  const hasNuma = columns.includes('NUMA_Affinity');

  const result: GpuTopology[] = [];
  for (const line of lines.slice(headerAt + 1)) {
    if (/^\s*Legend:/.test(line)) break;
    const m = /^GPU(\d+)\s/.exec(line);
    if (!m) continue; // NIC rows, blank lines
    const tokens = line.trim().split(/\s+/);
    const links = tokens.slice(1, 1 + devices.length);
    if (links.length < devices.length) continue; // a cut-off row
    const nvlinkPeers: number[] = [];
    devices.forEach((device, i) => {
      const peer = /^GPU(\d+)$/.exec(device);
      if (peer && /^NV\d+$/.test(links[i] ?? '')) nvlinkPeers.push(Number(peer[1]));
    });
    const cpuAffinity = affinityAt >= 0 ? (tokens[1 + devices.length] ?? '') : '';
    const numa = hasNuma ? (tokens[2 + devices.length] ?? '') : '';
    result.push({
      index: Number(m[1]),
      numaNode: /^\d+$/.test(numa) ? Number(numa) : -1,
      nvlinkPeers,
      cpuAffinity: cpuAffinity === 'N/A' ? '' : cpuAffinity,
    });
  }
  return result;
}
