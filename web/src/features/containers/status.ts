import type { ContainerStatus } from './types';

/** antd Tag colours for the spec's success / warning / info / danger. */
export type StatusTagColor = 'success' | 'warning' | 'default' | 'error';

export interface StatusDisplay {
  label: string;
  color: StatusTagColor;
}

const STATUS_DISPLAY: Record<ContainerStatus, StatusDisplay> = {
  running: { label: '运行中', color: 'success' },
  starting: { label: '启动中', color: 'warning' },
  pulling: { label: '拉取镜像中', color: 'warning' },
  stopped: { label: '已停止', color: 'default' },
  error: { label: '错误', color: 'error' },
  failed: { label: '失败', color: 'default' },
  not_found: { label: '不存在', color: 'default' },
  deleted: { label: '已删除', color: 'default' },
};

function isContainerStatus(status: string): status is ContainerStatus {
  return Object.hasOwn(STATUS_DISPLAY, status);
}

/** The tag of a status; 拉取镜像中 carries the pull's percentage when known. */
export function statusDisplay(status: string, pullProgress?: number | null): StatusDisplay {
  if (!isContainerStatus(status)) return { label: status || '未知', color: 'default' };
  const display = STATUS_DISPLAY[status];
  return status === 'pulling' && typeof pullProgress === 'number'
    ? { ...display, label: `${display.label} ${pullProgress}%` }
    : display;
}

/** The phase of a pull under 拉取镜像中 (the node downloads the layers, then unpacks them). */
export function pullPhaseLabel(phase: string | null | undefined): string {
  return phase === 'extracting' ? '解压中' : '下载中';
}

export type ContainerAction = 'start' | 'stop' | 'destroy';

/** The spec's action table: stop while running or starting, start otherwise; destroy always (not once deleted). */
export function containerActions(status: string): ContainerAction[] {
  switch (status) {
    case 'running':
    case 'starting':
      return ['stop', 'destroy'];
    case 'stopped':
    case 'error':
    case 'failed':
    case 'not_found':
      return ['start', 'destroy'];
    case 'pulling':
      // Nothing to start or stop until the node has created it.
      return ['destroy'];
    case 'deleted':
      return [];
    default:
      // An unknown status from a newer server: offer what always makes sense.
      return ['destroy'];
  }
}

export const STATUS_POLL_INTERVAL_MS = 5000;

/** Poll every 5 s while any container is pulling its image or starting; stop once none is. */
export function pollInterval(statuses: readonly string[]): number | false {
  return statuses.some((s) => s === 'starting' || s === 'pulling') ? STATUS_POLL_INTERVAL_MS : false;
}
