import type { McpStatus } from '@gpucloud/control-plane/api';

export type StatusFilter = 'all' | Exclude<McpStatus, 'deleted'>;

/** The status filter of the list (spec: all, running, stopped, creating, failed). */
export const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: '全部' },
  { value: 'running', label: '运行中' },
  { value: 'stopped', label: '已停止' },
  { value: 'creating', label: '创建中' },
  { value: 'failed', label: '失败' },
];

const DISPLAY: Record<McpStatus, { label: string; color: 'success' | 'warning' | 'default' | 'error' }> = {
  running: { label: '运行中', color: 'success' },
  stopped: { label: '已停止', color: 'default' },
  creating: { label: '创建中', color: 'warning' },
  failed: { label: '失败', color: 'error' },
  deleted: { label: '已删除', color: 'default' },
};

export function mcpStatusDisplay(status: string) {
  return Object.hasOwn(DISPLAY, status)
    ? DISPLAY[status as McpStatus]
    : { label: status || '未知', color: 'default' as const };
}

/** Start is disabled while running (and while the container is still being created or is gone). */
export function canStart(status: string): boolean {
  return status !== 'running' && status !== 'creating' && status !== 'deleted';
}

/** Stop is disabled unless running. */
export function canStop(status: string): boolean {
  return status === 'running';
}

/** The root password can only be set inside a running container. */
export function canResetPassword(status: string): boolean {
  return status === 'running';
}

export const CREATING_POLL_INTERVAL_MS = 5000;

/** Poll while any container is still being created. */
export function pollInterval(statuses: readonly string[]): number | false {
  return statuses.includes('creating') ? CREATING_POLL_INTERVAL_MS : false;
}
