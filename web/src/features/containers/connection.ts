import type { Container } from '@gpucloud/control-plane/api';

export const JUPYTER_CONTAINER_PORT = '8888';

export function sshAddress(container: Pick<Container, 'ssh_server' | 'ssh_port'>): string | null {
  if (!container.ssh_server || !container.ssh_port) return null;
  return `${container.ssh_server}:${container.ssh_port}`;
}

export function sshCommand(container: Pick<Container, 'ssh_server' | 'ssh_port'>): string | null {
  if (!container.ssh_server || !container.ssh_port) return null;
  return `ssh -p ${container.ssh_port} root@${container.ssh_server}`;
}

/** What 复制连接信息 puts on the clipboard. */
export function connectionInfo(
  container: Pick<Container, 'ssh_server' | 'ssh_port' | 'password'>,
): string | null {
  const command = sshCommand(container);
  if (!command) return null;
  return container.password ? `${command}\n密码：${container.password}` : command;
}

/**
 * http://<ssh_server>:<host port of container port 8888>, when the container maps it and its
 * image has Jupyter (a container whose image has none gets no dead link).
 */
export function jupyterUrl(
  container: Pick<Container, 'ssh_server' | 'frame_ports' | 'jupyter'>,
): string | null {
  const port = container.frame_ports?.[JUPYTER_CONTAINER_PORT];
  if (!container.ssh_server || !port || container.jupyter === 'absent') return null;
  return `http://${container.ssh_server}:${port}`;
}

/** Said instead of the Jupyter address when the image has no Jupyter. */
export const NO_JUPYTER = '该镜像未安装 JupyterLab';

/** Hourly containers are released 3 days after shutdown; prepaid ones expire at end_time. */
export function releaseNote(
  container: Pick<Container, 'billing_type' | 'end_time'>,
  formatTime: (t: string) => string,
) {
  if (container.billing_type === 'hourly') return '关机 3 天后释放';
  return container.end_time ? `到期时间 ${formatTime(container.end_time)}` : '到期时间 -';
}

/** ws(s)://<host>/api/containers/ws/<id>/logs?token=<token>, following the page's protocol. */
export function logSocketUrl(
  location: Pick<Location, 'protocol' | 'host'>,
  containerId: string,
  token: string,
) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/api/containers/ws/${encodeURIComponent(containerId)}/logs?token=${encodeURIComponent(token)}`;
}
