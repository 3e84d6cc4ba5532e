// 运行中 means reachable: after a start the agent waits until the container's SSH port answers
// with an SSH banner through the published port (what a user's client reaches), and until
// Jupyter answers where the init runs it (Docker's health check, see toolbox/health.sh).
import net from 'node:net';
import type { ContainerClient, ContainerDetails, PortMapping } from '../docker/container-client.js';
import { exposesJupyter } from './jupyter-access.js';
import { jupyterFromHealth, SSH_CONTAINER_PORT, TOOLBOX_HEALTH } from './toolbox.js';

/** True when host:port sends a line starting with `SSH-` within `timeoutMs`. */
export function answersSsh(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let received = '';
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.length >= 4) done(received.startsWith('SSH-'));
    });
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
  });
}

/** Where the agent itself reaches a published port. */
export function probeHost(hostIp: string, bindAddress: string): string {
  const ip = hostIp || bindAddress;
  if (ip === '0.0.0.0' || ip === '') return '127.0.0.1';
  if (ip === '::') return '::1';
  return ip;
}

export function sshBinding(ports: PortMapping[]): PortMapping | undefined {
  return (
    ports.find((p) => p.name === 'ssh' && p.protocol === 'tcp') ??
    ports.find((p) => p.containerPort === SSH_CONTAINER_PORT && p.protocol === 'tcp')
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface WaitOptions {
  bindAddress: string;
  timeoutMs: number;
  /** Between two SSH probes. */
  pollMs?: number;
}

export interface Reachability {
  /** '' when reachable, else why not (it stopped, or the time ran out). */
  problem: string;
  /** Jupyter as the health script saw it ('' when the port is not exposed). */
  jupyter: string;
  /** The container as last inspected (after the wait); undefined when it is gone. */
  details: ContainerDetails | undefined;
}

/**
 * Waits until the started container is reachable: SSH through the published port, then, where
 * the container exposes Jupyter, the toolbox's health script run in it (Docker's own schedule
 * of that script is too slow to wait on, and engines before 25 have no start interval).
 * The first probe goes out at once; the container is inspected every half second meanwhile (has
 * it stopped?) and once at the end.
 */
export async function waitReachable(
  client: ContainerClient,
  dockerId: string,
  ports: PortMapping[],
  options: WaitOptions,
): Promise<Reachability> {
  const deadline = Date.now() + options.timeoutMs;
  const pollMs = options.pollMs ?? 10;
  const ssh = sshBinding(ports);
  const jupyterExposed = exposesJupyter(ports);
  let sshUp = !ssh;
  let jupyter = '';
  let inspectedAt = Date.now();
  let problem = '';
  for (;;) {
    if (!sshUp && ssh) {
      sshUp = await answersSsh(probeHost(ssh.hostIp, options.bindAddress), ssh.hostPort, 1000);
    }
    if (sshUp) {
      if (!jupyterExposed) break;
      const check = await client.exec(dockerId, [TOOLBOX_HEALTH]);
      jupyter = jupyterFromHealth(check.stdout);
      if (check.exitCode === 0 || jupyter === 'absent') break;
    }
    if (Date.now() >= deadline) {
      problem = sshUp ? 'Jupyter 未能在规定时间内启动' : 'SSH 服务未能在规定时间内启动';
      break;
    }
    await sleep(sshUp ? 250 : pollMs);
    if (Date.now() - inspectedAt >= 500) {
      const details = await client.inspectContainer(dockerId);
      inspectedAt = Date.now();
      if (notRunning(details)) return { problem: notRunning(details), jupyter, details };
    }
  }
  const details = await client.inspectContainer(dockerId);
  return { problem: notRunning(details) || problem, jupyter, details };
}

function notRunning(details: ContainerDetails | undefined): string {
  if (!details) return '容器已不存在';
  return details.state === 'running' ? '' : `容器已停止 (${details.statusText})`;
}

/** Reachable as far as Docker's health check knows (after a restart of the agent, say). */
export function healthyNow(details: ContainerDetails): boolean {
  return details.state === 'running' && details.health.status === 'healthy';
}
