// Host ports in use: what Docker publishes (every container, managed or not, plus the
// reserved ports of stopped managed containers) and the host's TCP sockets that hold a port.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ContainerClient } from '../docker/container-client.js';
import { LABELS, portsFromLabel } from '../docker/labels.js';

const TCP_TIME_WAIT = '06';

/**
 * Local ports held by a socket, from the text of /proc/net/tcp or /proc/net/tcp6: listeners, and
 * connections too (a host connection whose local port is in the node's range makes publishing that
 * port fail with "address already in use"). Sockets in TIME_WAIT are left out: Docker binds over them.
 */
export function parseProcNetTcp(text: string): number[] {
  const ports = new Set<number>();
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const local = fields[1];
    if (!local || !fields[3] || fields[3] === TCP_TIME_WAIT) continue;
    const port = Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16);
    if (port > 0) ports.add(port);
  }
  return [...ports];
}

export async function hostTcpPortsInUse(procRoot = '/proc'): Promise<number[]> {
  const ports = new Set<number>();
  for (const file of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = await fs.readFile(path.join(procRoot, 'net', file), 'utf8');
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ENOENT' && file === 'tcp6') continue; // IPv6 disabled
      throw err;
    }
    for (const port of parseProcNetTcp(text)) ports.add(port);
  }
  return [...ports];
}

export function sortedUnique(ports: Iterable<number>): number[] {
  return [...new Set(ports)].filter((p) => p > 0).sort((a, b) => a - b);
}

export class OccupiedPorts {
  constructor(
    private readonly client: ContainerClient,
    private readonly procRoot = '/proc',
  ) {}

  /** Sorted, without duplicates; fails (never guesses) when Docker cannot be asked. */
  async list(): Promise<number[]> {
    const [containers, held] = await Promise.all([
      this.client.listContainers({ all: true, labels: [] }),
      hostTcpPortsInUse(this.procRoot),
    ]);
    const ports: number[] = [...held];
    for (const container of containers) {
      ports.push(...container.publishedPorts);
      // A stopped managed container gets its ports back when it starts again.
      if (container.labels[LABELS.managed] === 'true') {
        ports.push(...portsFromLabel(container.labels[LABELS.ports]).map((p) => p.hostPort));
      }
    }
    return sortedUnique(ports);
  }
}
