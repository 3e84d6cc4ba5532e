import type { NewNode } from '@gpucloud/control-plane/api';

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
