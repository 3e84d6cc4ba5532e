// The address containers' ports are published on when `--bind-address auto` (the default): the
// node's public address where the host has it on an interface, else (a cloud VM behind 1:1 NAT)
// the address of the interface the default route leaves by, which is where NATed traffic
// arrives. Never every address: SSH and Jupyter ports stay off the host's other (private,
// management, Docker) interfaces.
import { lookup } from 'node:dns/promises';
import fs from 'node:fs/promises';
import { isIP } from 'node:net';
import os from 'node:os';

export interface BindAddressChoice {
  address: string;
  /** How it was chosen, for the agent's log. */
  reason: string;
  /** Set when no single address could be chosen and ports go on every address (HostInfo warns). */
  warning: string;
}

type Interfaces = ReturnType<typeof os.networkInterfaces>;

/** The interface of the IPv4 default route (`/proc/net/route`: destination 00000000, mask 0). */
export async function defaultRouteInterface(file = '/proc/net/route'): Promise<string | undefined> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  for (const line of text.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length >= 8 && cols[1] === '00000000' && cols[7] === '00000000') return cols[0];
  }
  return undefined;
}

function localIpv4s(interfaces: Interfaces): Map<string, string> {
  const found = new Map<string, string>(); // address → interface
  for (const [name, addresses] of Object.entries(interfaces)) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) found.set(a.address, name);
  }
  return found;
}

export async function chooseBindAddress(
  publicHost: string,
  options: {
    interfaces?: Interfaces;
    resolve?: (host: string) => Promise<string[]>;
    routeInterface?: () => Promise<string | undefined>;
  } = {},
): Promise<BindAddressChoice> {
  const interfaces = options.interfaces ?? os.networkInterfaces();
  const local = localIpv4s(interfaces);
  const resolve =
    options.resolve ??
    ((host: string) =>
      lookup(host, { all: true, family: 4 }).then(
        (list) => list.map((a) => a.address),
        () => [],
      ));
  const publicIps = isIP(publicHost) === 4 ? [publicHost] : await resolve(publicHost);
  const onHost = publicIps.find((ip) => local.has(ip));
  if (onHost)
    return {
      address: onHost,
      reason: `the public address ${publicHost} is on ${local.get(onHost)}`,
      warning: '',
    };
  const routeInterface = await (options.routeInterface ?? defaultRouteInterface)();
  const viaRoute = [...local].find(([, name]) => name === routeInterface)?.[0];
  if (viaRoute) {
    return {
      address: viaRoute,
      reason: `${publicHost} is not on this host (NAT); ${routeInterface} carries the default route`,
      warning: '',
    };
  }
  return {
    address: '0.0.0.0',
    reason: 'no interface address could be chosen',
    warning:
      '容器端口发布在本机所有地址上 (--bind-address auto found neither the public address on an interface nor a default route: set --bind-address to the public address)',
  };
}
