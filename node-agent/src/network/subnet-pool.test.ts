import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCidr, hostRoutes, overlaps, parseCidr, parseSubnetPool, pickSubnet } from './subnet-pool.js';

describe('tenant subnet pool', () => {
  it('parses CIDRs and tells overlaps', () => {
    expect(formatCidr(parseCidr('10.128.3.7/12'))).toBe('10.128.0.0/12');
    expect(overlaps(parseCidr('10.128.0.0/12'), parseCidr('10.130.4.0/24'))).toBe(true);
    expect(overlaps(parseCidr('10.128.0.0/12'), parseCidr('10.144.0.0/24'))).toBe(false);
    expect(() => parseCidr('10.128.0.0')).toThrow(/CIDR/);
    expect(() => parseSubnetPool('10.128.0.0/25')).toThrow(/at least one \/24/);
  });

  it('picks a free /24, skipping the used ones, until the pool is full', () => {
    const pool = parseCidr('10.128.0.0/22'); // four /24s
    const used = [parseCidr('10.128.0.0/24'), parseCidr('10.128.1.0/24'), parseCidr('10.128.3.0/24')];
    expect(formatCidr(pickSubnet(pool, used, () => 0) ?? { base: 0, prefix: 0 })).toBe('10.128.2.0/24');
    expect(pickSubnet(pool, [...used, parseCidr('10.128.2.0/24')])).toBeUndefined();
    // A route covering the whole pool leaves nothing.
    expect(pickSubnet(pool, [parseCidr('10.0.0.0/8')])).toBeUndefined();
  });

  it("reads the host's routes, without the default route", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'routes-'));
    const file = path.join(dir, 'route');
    await fs.writeFile(
      file,
      [
        'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT',
        'eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0',
        'br0\t005917AC\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0',
        'eth1\t0000800A\t00000000\t0001\t0\t0\t0\t0000F0FF\t0\t0\t0',
      ].join('\n'),
    );
    expect((await hostRoutes(file)).map(formatCidr)).toEqual(['172.23.89.0/24', '10.128.0.0/12']);
    await fs.rm(dir, { recursive: true });
  });
});
