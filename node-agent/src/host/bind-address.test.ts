import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { chooseBindAddress, defaultRouteInterface } from './bind-address.js';

type Interfaces = ReturnType<typeof os.networkInterfaces>;
const v4 = (address: string, internal = false) => ({
  address,
  netmask: '255.255.255.0',
  family: 'IPv4' as const,
  mac: '00:00:00:00:00:00',
  internal,
  cidr: `${address}/24`,
});
const interfaces: Interfaces = {
  lo: [v4('127.0.0.1', true)],
  eth0: [v4('10.0.0.5')], // the NATed interface (default route)
  eth1: [v4('203.0.113.7')], // a public address on the host
  docker0: [v4('172.17.0.1')],
};

describe('the address container ports are published on (--bind-address auto)', () => {
  it("is the public host's address where the host has it, named or as an IP", async () => {
    const resolve = async (host: string) => (host === 'gpu1.example.com' ? ['203.0.113.7'] : []);
    expect(await chooseBindAddress('gpu1.example.com', { interfaces, resolve })).toMatchObject({
      address: '203.0.113.7',
      warning: '',
    });
    expect((await chooseBindAddress('203.0.113.7', { interfaces, resolve })).address).toBe('203.0.113.7');
  });

  it('is the default route interface address behind NAT (the public address is not on the host)', async () => {
    const choice = await chooseBindAddress('198.51.100.9', {
      interfaces,
      resolve: async () => [],
      routeInterface: async () => 'eth0',
    });
    expect(choice).toMatchObject({ address: '10.0.0.5', warning: '' });
    expect(choice.reason).toContain('NAT');
  });

  it('falls back to every address with a warning when neither is found', async () => {
    const choice = await chooseBindAddress('gpu1.example.com', {
      interfaces: { lo: [v4('127.0.0.1', true)] },
      resolve: async () => [],
      routeInterface: async () => undefined,
    });
    expect(choice.address).toBe('0.0.0.0');
    expect(choice.warning).toContain('容器端口发布在本机所有地址上');
  });

  it('reads the default route interface from /proc/net/route', async () => {
    const fs = await import('node:fs/promises');
    const dir = await fs.mkdtemp(`${os.tmpdir()}/route-`);
    try {
      await fs.writeFile(
        `${dir}/route`,
        'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n' +
          'docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n' +
          'ens5\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0\n',
      );
      expect(await defaultRouteInterface(`${dir}/route`)).toBe('ens5');
      expect(await defaultRouteInterface(`${dir}/none`)).toBeUndefined();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
