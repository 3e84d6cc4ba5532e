// The kernel hands ports of net.ipv4.ip_local_port_range to outgoing connections: a node range
// that overlaps it can see a port it gives a container taken by a host connection first.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PortRange } from '../config.js';

/** The range in /proc/sys/net/ipv4/ip_local_port_range ("32768\t60999"), or undefined. */
export function parseLocalPortRange(text: string): PortRange | undefined {
  const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(text);
  if (!m) return undefined;
  return { start: Number(m[1]), end: Number(m[2]) };
}

export async function ephemeralPortRange(procRoot = '/proc'): Promise<PortRange | undefined> {
  try {
    return parseLocalPortRange(
      await fs.readFile(path.join(procRoot, 'sys/net/ipv4/ip_local_port_range'), 'utf8'),
    );
  } catch {
    return undefined; // not Linux, or /proc not mounted: nothing to compare with
  }
}

/** A warning for the agent's log when `range` overlaps the ephemeral ports, else undefined. */
export function ephemeralOverlapWarning(
  range: PortRange,
  ephemeral: PortRange | undefined,
): string | undefined {
  if (!ephemeral || range.end < ephemeral.start || range.start > ephemeral.end) return undefined;
  return (
    `warning: the container port range ${range.start}-${range.end} overlaps the kernel's ports for outgoing ` +
    `connections (${ephemeral.start}-${ephemeral.end}); a container may then fail to start with ` +
    `"address already in use". Choose --port-range outside it, or narrow net.ipv4.ip_local_port_range.`
  );
}
