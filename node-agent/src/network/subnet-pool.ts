// The address space of tenant networks: /24s out of one pool (--tenant-subnet-pool, default
// 10.128.0.0/12 = 4096 networks). Docker's own default pools hold about 30 bridge networks,
// far fewer than the tenants of a busy node; an explicit subnet per network avoids them.
import fs from 'node:fs/promises';

export const DEFAULT_TENANT_SUBNET_POOL = '10.128.0.0/12';
/** Every tenant network is a /24: 253 containers of one user on one node is plenty. */
export const TENANT_SUBNET_PREFIX = 24;

export interface Cidr {
  /** The network address as an unsigned 32-bit number. */
  base: number;
  prefix: number;
}

export function ipToNumber(ip: string): number {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) {
    throw new Error(`"${ip}" is not an IPv4 address`);
  }
  return (
    ((parts[0] ?? 0) * 2 ** 24 + (parts[1] ?? 0) * 2 ** 16 + (parts[2] ?? 0) * 2 ** 8 + (parts[3] ?? 0)) >>> 0
  );
}

export function numberToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

const mask = (prefix: number) => (prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);

/** Parses `a.b.c.d/n`; throws with a message on anything else. */
export function parseCidr(text: string): Cidr {
  const m = /^\s*(\d+\.\d+\.\d+\.\d+)\/(\d{1,2})\s*$/.exec(text);
  const prefix = Number(m?.[2]);
  if (!m?.[1] || prefix > 32) throw new Error(`"${text}" is not an IPv4 CIDR such as 10.128.0.0/12`);
  return { base: (ipToNumber(m[1]) & mask(prefix)) >>> 0, prefix };
}

export const formatCidr = (c: Cidr) => `${numberToIp(c.base)}/${c.prefix}`;

export function overlaps(a: Cidr, b: Cidr): boolean {
  const p = Math.min(a.prefix, b.prefix);
  return (a.base & mask(p)) >>> 0 === (b.base & mask(p)) >>> 0;
}

/** Checks a pool for the subnets of tenant networks (at least one /24). */
export function parseSubnetPool(text: string): Cidr {
  const pool = parseCidr(text);
  if (pool.prefix > TENANT_SUBNET_PREFIX) {
    throw new Error(`the tenant subnet pool "${text}" must hold at least one /${TENANT_SUBNET_PREFIX}`);
  }
  return pool;
}

/** IPv4 destinations the host routes (/proc/net/route), the default route left out. */
export async function hostRoutes(file = '/proc/net/route'): Promise<Cidr[]> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const routes: Cidr[] = [];
  for (const line of text.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 8) continue;
    // Little-endian hex (x86, arm64): 0101A8C0 = 192.168.1.1.
    const le = (hex: string) => {
      const n = Number.parseInt(hex, 16);
      return (((n & 255) << 24) | (((n >>> 8) & 255) << 16) | (((n >>> 16) & 255) << 8) | (n >>> 24)) >>> 0;
    };
    const dest = le(cols[1] ?? '0');
    const m = le(cols[7] ?? '0');
    if (m === 0) continue; // the default route
    // A contiguous mask: its leading ones are the prefix length.
    routes.push({ base: (dest & m) >>> 0, prefix: Math.clz32(~m >>> 0) });
  }
  return routes;
}

/**
 * A /24 of the pool that overlaps none of `used`, picked at random among the free ones (two
 * engines on one host, each knowing only its own networks, rarely pick the same); undefined when
 * the pool is full.
 */
export function pickSubnet(pool: Cidr, used: Cidr[], random = Math.random): Cidr | undefined {
  const count = 2 ** (TENANT_SUBNET_PREFIX - pool.prefix);
  const start = Math.floor(random() * count);
  for (let i = 0; i < count; i++) {
    const candidate = {
      base: (pool.base + ((start + i) % count) * 2 ** (32 - TENANT_SUBNET_PREFIX)) >>> 0,
      prefix: TENANT_SUBNET_PREFIX,
    };
    if (!used.some((u) => overlaps(u, candidate))) return candidate;
  }
  return undefined;
}
