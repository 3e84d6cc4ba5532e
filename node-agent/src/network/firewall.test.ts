import { describe, expect, it } from 'vitest';
import { fakeIptables } from '../../test/fake-iptables.js';
import { FORWARD_CHAIN, INPUT_CHAIN, privateNameservers, TenantFirewall } from './firewall.js';

describe('tenant firewall', () => {
  it('puts replies and allowances above the drops, and hooks its chains at the top', async () => {
    const fake = fakeIptables();
    const firewall = new TenantFirewall({ run: fake.run, nameservers: ['10.0.0.2'] });
    await firewall.setup(['gpct0123456789a']);
    expect(firewall.problem).toBe('');
    const forward = (fake.chains.get(`iptables ${FORWARD_CHAIN}`) ?? []).map((r) => r.join(' '));
    expect(forward).toEqual([
      '-i gpct0123456789a -o gpct0123456789a -j RETURN',
      '-i gpct+ -d 10.0.0.2/32 -p tcp --dport 53 -j RETURN',
      '-i gpct+ -d 10.0.0.2/32 -p udp --dport 53 -j RETURN',
      '-i gpct+ -m conntrack --ctstate ESTABLISHED,RELATED -j RETURN',
      '-i gpct+ -o gpct+ -j DROP',
      '-i gpct+ -d 169.254.0.0/16 -j DROP',
      '-i gpct+ -d 10.0.0.0/8 -j DROP',
      '-i gpct+ -d 172.16.0.0/12 -j DROP',
      '-i gpct+ -d 192.168.0.0/16 -j DROP',
      '-i gpct+ -d 100.64.0.0/10 -j DROP',
    ]);
    expect((fake.chains.get(`iptables ${INPUT_CHAIN}`) ?? []).map((r) => r.join(' '))).toEqual([
      '-i gpct+ -m conntrack --ctstate ESTABLISHED,RELATED -j RETURN',
      '-i gpct+ -j DROP',
    ]);
    expect(fake.chains.get('iptables DOCKER-USER')?.[0]).toEqual(['-i', 'gpct+', '-j', FORWARD_CHAIN]);
    expect(fake.chains.get('iptables INPUT')?.[0]).toEqual(['-i', 'gpct+', '-j', INPUT_CHAIN]);

    // Idempotent: a second start adds nothing; a bridge's rule goes with its network.
    const before = JSON.stringify([...fake.chains]);
    await firewall.setup(['gpct0123456789a']);
    expect(JSON.stringify([...fake.chains])).toBe(before);
    await firewall.forgetBridge('gpct0123456789a');
    expect(fake.chains.get(`iptables ${FORWARD_CHAIN}`)?.[0]?.join(' ')).not.toContain('gpct0123456789a');
  });

  it('says in Chinese why tenants are not isolated when iptables fails', async () => {
    const firewall = new TenantFirewall({
      run: fakeIptables('iptables: Permission denied (you must be root)').run,
    });
    await firewall.setup();
    expect(firewall.problem).toMatch(
      /^无法设置租户网络隔离, 本节点不接受容器 \(tenant network isolation is not in place: /,
    );
    expect(firewall.problem).toContain('you must be root');
  });

  it("reads the host's private nameservers only", async () => {
    expect(await privateNameservers(['/nonexistent'])).toEqual([]);
  });
});
