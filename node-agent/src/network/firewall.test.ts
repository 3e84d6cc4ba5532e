import { describe, expect, it } from 'vitest';
import { FORWARD_CHAIN, INPUT_CHAIN, privateNameservers, TenantFirewall } from './firewall.js';

/** A fake iptables holding the rules per binary and chain, as `-S` would list them. */
function fakeIptables(failWith?: string) {
  const chains = new Map<string, string[][]>([
    ['iptables INPUT', []],
    ['iptables DOCKER-USER', [['-j', 'RETURN']]],
    ['ip6tables INPUT', []],
  ]);
  const calls: string[] = [];
  const run = async (binary: 'iptables' | 'ip6tables', args: string[]) => {
    calls.push(`${binary} ${args.join(' ')}`);
    if (failWith) throw new Error(failWith);
    const [verb, chain = '', ...rest] = args;
    const key = `${binary} ${chain}`;
    const rules = chains.get(key);
    const same = (r: string[], rule: string[]) => r.join(' ') === rule.join(' ');
    if (verb === '-N') {
      if (rules) throw new Error('Chain already exists');
      chains.set(key, []);
      return;
    }
    if (args[0] === '-n' && args[1] === '-L') {
      if (!chains.has(`${binary} ${args[2]}`)) throw new Error('No chain');
      return;
    }
    if (!rules) throw new Error(`no chain ${chain}`);
    if (verb === '-C' && !rules.some((r) => same(r, rest))) throw new Error('Bad rule');
    if (verb === '-A') rules.push(rest);
    if (verb === '-I') rules.unshift(rest.slice(1));
    if (verb === '-D')
      rules.splice(
        rules.findIndex((r) => same(r, rest)),
        1,
      );
  };
  return { run, chains, calls };
}

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
