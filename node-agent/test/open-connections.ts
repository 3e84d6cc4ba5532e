// Counts the connections this process holds open to the Docker engine, as the kernel sees
// them (`ss` from iproute2): a leaked log stream is a connection that never closes.
import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';

function ss(args: string[]): string {
  try {
    return execFileSync('ss', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    throw new Error(
      `counting open connections needs ss (apt-get install iproute2): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** Connections from process `pid` to the engine at `dockerHost` (unix:// or tcp://). */
export function engineConnections(dockerHost: string, pid = process.pid): number {
  const mine = (line: string) => line.includes(`pid=${pid},`);
  if (!dockerHost.startsWith('unix://')) {
    const url = new URL(dockerHost.replace(/^tcp:\/\//, 'http://'));
    return ss(['-Htnp', 'state', 'established', 'dst', `${url.hostname}:${url.port}`])
      .split('\n')
      .filter(mine).length;
  }
  const socketPath = dockerHost.slice('unix://'.length);
  // `u_str ESTAB 0 0 <local path or *> <inode> <peer path or *> <peer inode> users:(…)`: a client
  // end has no path of its own; its peer (the engine's end) carries the socket's path.
  const lines = ss(['-Hxpn']).split('\n');
  const pathOfInode = new Map<string, string>();
  for (const line of lines) {
    const f = line.trim().split(/\s+/);
    if (f.length >= 8 && f[5]) pathOfInode.set(f[5], f[4] ?? '');
  }
  return lines.filter((line) => {
    const f = line.trim().split(/\s+/);
    return mine(line) && f[1] === 'ESTAB' && pathOfInode.get(f[7] ?? '') === socketPath;
  }).length;
}

/** Open file descriptors of this process that are sockets. */
export function openSocketFds(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:')) count += 1;
    } catch {
      // closed between readdir and readlink
    }
  }
  return count;
}
