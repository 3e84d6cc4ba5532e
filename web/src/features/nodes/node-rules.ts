import type { GpuNode, NewNode, NodeGpu } from '@gpucloud/control-plane/api';
import dayjs, { type Dayjs } from 'dayjs';
import { formatBytes } from '../../lib/format';

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

/** 3 秒前 / 2 分钟前 / 1 小时前: how long ago the node's last heartbeat came; 无心跳 before the first. */
export function heartbeatAgeLabel(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '无心跳';
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} 秒前`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} 分钟前`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} 小时前`;
  return `${Math.floor(hours / 24)} 天前`;
}

/** A heartbeat older than this is shown as late (the node monitor marks a node offline after 30 s). */
export const HEARTBEAT_LATE_MS = 30_000;

/** "空闲 6 · 已用 1 · 保留 1": the node's GPUs at a glance (保留: kept by a stopped prepaid container). */
export function gpuUsageLabel(usage: GpuNode['gpu_usage']): string {
  return `空闲 ${usage.free} · 已用 ${usage.used} · 保留 ${usage.held}`;
}

/** "可用 120 GB / 500 GB"; 未知 when the agent did not report the disk. */
export function diskFreeLabel(free: number | null, total: number | null): string {
  if (free === null || total === null) return '未知';
  return `可用 ${formatBytes(free)} / ${formatBytes(total)}`;
}

/** Below 10% free (or 10 GiB), a disk is shown as nearly full. */
export function diskLow(free: number | null, total: number | null): boolean {
  if (free === null || total === null || total <= 0) return false;
  return free / total < 0.1 || free < 10 * 1024 ** 3;
}

/** "维护中，预计 2026-12-01 08:00 结束" / "维护中，结束时间另行通知", with the reason. */
export function maintenanceLabel(maintenance: NonNullable<GpuNode['maintenance']>): string {
  const until = maintenance.until
    ? `预计 ${dayjs(maintenance.until).format('YYYY-MM-DD HH:mm')} 结束`
    : '结束时间另行通知';
  return maintenance.reason ? `${until}；原因：${maintenance.reason}` : until;
}

export const MSG_MAINTENANCE_UNTIL_PAST = '结束时间须晚于当前时间';

/** The maintenance end a form chose: null (none) or a future time; else why not. */
export function validateMaintenanceUntil(until: Dayjs | null | undefined, now = dayjs()): string | null {
  if (!until) return null;
  return until.isAfter(now) ? null : MSG_MAINTENANCE_UNTIL_PAST;
}

/** The agent's version as 1.2.3 (build abc123def456), or 未知. */
export function agentVersionLabel(node: Pick<GpuNode, 'agent_version' | 'agent_build'>): string {
  if (!node.agent_version) return '未知';
  return node.agent_build ? `${node.agent_version}（${node.agent_build}）` : node.agent_version;
}

const JOIN_TOKEN_STATUS: Record<string, NodeStatusDisplay> = {
  pending: { label: '待使用', color: 'success' },
  used: { label: '已使用', color: 'default' },
  expired: { label: '已过期', color: 'default' },
};

export function joinTokenStatusDisplay(status: string): NodeStatusDisplay {
  return JOIN_TOKEN_STATUS[status] ?? { label: status || '未知', color: 'default' };
}
