// A stand-in for the iptables binaries in unit tests: the rules live in memory, per binary and
// chain, the way `iptables -S` would list them (the real rules are tested in tenant-isolation).

/** A fake iptables holding the rules per binary and chain, as `-S` would list them. */
export function fakeIptables(failWith?: string) {
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
