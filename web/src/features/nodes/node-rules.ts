import type { GpuNode, NewNode, NodeGpu } from '@gpucloud/control-plane/api';

export interface NodeStatusDisplay {
  label: string;
  color: 'success' | 'default' | 'error';
}

const NODE_STATUS: Record<string, NodeStatusDisplay> = {
  online: { label: '在线', color: 'success' },
  offline: { label: '离线', color: 'default' },
  unsafe: { label: '不安全', color: 'error' },
};

export function nodeStatusDisplay(status: string): NodeStatusDisplay {
  return NODE_STATUS[status] ?? { label: status || '未知', color: 'default' };
}

export function gpuSummary(node: { gpu_model?: string | null; gpu_total?: number | null }): string {
  if (!node.gpu_total) return '无 GPU';
  return `${node.gpu_model || 'GPU'} × ${node.gpu_total}`;
}

/** "可用 3 / 4": the GPUs that may be rented now (present, healthy, not MIG, fabric ready, free). */
export function gpuFreeSummary(node: Pick<GpuNode, 'gpu_free' | 'gpu_total'>): string {
  return node.gpu_total ? `可用 ${node.gpu_free ?? 0} / ${node.gpu_total}` : '';
}

/** How the node's containers get their GPUs. */
export function gpuDevicePathLabel(path: string): string {
  if (path === 'cdi') return 'CDI';
  if (path === 'legacy') return '传统 nvidia runtime';
  return '-';
}

/**
 * The node GPUs a GPU reaches over NVLink, as "GPU <index>" (its peers are UUIDs, resolved within
 * the node; a peer the node does not list is shown by its UUID).
 */
export function nvlinkPeerLabels(gpu: Pick<NodeGpu, 'nvlink_peers'>, gpus: NodeGpu[]): string[] {
  const byUuid = new Map(gpus.map((g) => [g.uuid, g.index]));
  return (gpu.nvlink_peers ?? [])
    .map((uuid) => ({ uuid, index: byUuid.get(uuid) }))
    .sort((a, b) => (a.index ?? Number.MAX_SAFE_INTEGER) - (b.index ?? Number.MAX_SAFE_INTEGER))
    .map(({ uuid, index }) => (index === undefined ? uuid : `GPU ${index}`));
}

export const MSG_NODE_ADDRESS = '请输入正确的 gRPC 地址，格式为 host:port';

/** host:port, where host is a name, IPv4 or [IPv6] and port 1-65535. */
export function validateNodeAddress(value: string): string | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value.trim());
  if (!match) return MSG_NODE_ADDRESS;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? null : MSG_NODE_ADDRESS;
}

export function cleanNewNode(values: NewNode): NewNode {
  const publicHost = values.public_host?.trim();
  return {
    name: values.name.trim(),
    address: values.address.trim(),
    token: values.token.trim(),
    region: values.region.trim(),
    ...(publicHost ? { public_host: publicHost } : {}),
  };
}
