// The iptables rules that keep a tenant's containers away from the host and from every other
// tenant. Docker isolates its bridge networks from each other (DOCKER-ISOLATION chains) but lets
// a container reach the host itself (the gateway, any other address of the host: the control
// plane, the agent's gRPC port, PostgreSQL, sshd) and anything the host routes to (the
// datacenter's private networks, the cloud metadata service at 169.254.169.254).
//
// Every tenant bridge is named `gpct…` (tenant-networks.ts), so the rules match all of them with
// one wildcard (`-i gpct+`) and hold before a bridge even exists: a missing rule can never leave
// a new bridge open. Two chains of our own, hooked at the top of INPUT and DOCKER-USER:
//
//   GPUCLOUD-INPUT (INPUT, also ip6tables): from a tenant bridge, only replies (ESTABLISHED,
//     RELATED) reach the host; everything else is dropped. Docker's embedded DNS resolver
//     (127.0.0.11) answers inside the container's own network namespace and needs no rule.
//   GPUCLOUD-ISOLATION (DOCKER-USER, i.e. FORWARD): from a tenant bridge, replies pass; traffic
//     within one bridge passes (a rule per bridge, added with its network, removed with it);
//     DNS to the host's own private nameservers passes (Docker 20.10's resolver forwards from
//     the container's namespace); then drops: to any tenant bridge (other tenants, also of
//     another engine on the host), to 169.254.0.0/16, 10.0.0.0/8, 172.16.0.0/12,
//     192.168.0.0/16 and 100.64.0.0/10. What is left is the internet.
//
// Several agents (and engines) on one host share these chains: the rules are the same for all,
// each is added only when missing (`-C` first), and none is ever flushed.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { errorMessage } from '../errors.js';

export const TENANT_BRIDGE_PREFIX = 'gpct';
export const INPUT_CHAIN = 'GPUCLOUD-INPUT';
export const FORWARD_CHAIN = 'GPUCLOUD-ISOLATION';
/** Destinations a tenant never reaches through the host (besides other tenants' bridges). */
export const BLOCKED_RANGES = [
  '169.254.0.0/16',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
] as const;

const ANY_TENANT = `${TENANT_BRIDGE_PREFIX}+`;

/** Runs iptables (or ip6tables) with these arguments; rejects with its stderr. */
export type IptablesRunner = (binary: 'iptables' | 'ip6tables', args: string[]) => Promise<void>;

export const runIptables: IptablesRunner = (binary, args) =>
  new Promise((resolve, reject) => {
    // -w: wait for the xtables lock that Docker (and other agents) hold while they change rules.
    execFile(binary, ['-w', '5', ...args], { timeout: 20_000 }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`${binary} ${args.join(' ')}: ${stderr.trim() || err.message}`));
      else resolve();
    });
  });

/** The rules above, as iptables argument lists (without the -A/-I/-C verb and chain). */
export function isolationRules(privateNameservers: string[]) {
  const established = ['-m', 'conntrack', '--ctstate', 'ESTABLISHED,RELATED', '-j', 'RETURN'];
  const dns = privateNameservers.flatMap((ns) =>
    ['udp', 'tcp'].map((proto) => [
      '-i',
      ANY_TENANT,
      '-d',
      `${ns}/32`,
      '-p',
      proto,
      '--dport',
      '53',
      '-j',
      'RETURN',
    ]),
  );
  return {
    /** Hooks at the top of INPUT and DOCKER-USER. */
    hooks: [
      { chain: 'INPUT', rule: ['-i', ANY_TENANT, '-j', INPUT_CHAIN] },
      { chain: 'DOCKER-USER', rule: ['-i', ANY_TENANT, '-j', FORWARD_CHAIN] },
    ],
    inputReturns: [['-i', ANY_TENANT, ...established]],
    inputDrops: [['-i', ANY_TENANT, '-j', 'DROP']],
    forwardReturns: [['-i', ANY_TENANT, ...established], ...dns],
    forwardDrops: [
      ['-i', ANY_TENANT, '-o', ANY_TENANT, '-j', 'DROP'],
      ...BLOCKED_RANGES.map((range) => ['-i', ANY_TENANT, '-d', range, '-j', 'DROP']),
    ],
  };
}

/** Traffic within one tenant bridge (a user's own containers talking to each other). */
export const bridgeRule = (bridge: string) => ['-i', bridge, '-o', bridge, '-j', 'RETURN'];

function isPrivateV4(ip: string): boolean {
  const [a = 0, b = 0] = ip.split('.').map(Number);
  return (
    a === 10 ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b < 128)
  );
}

/** The host's nameservers in the private ranges (public ones are reachable anyway). */
export async function privateNameservers(
  files = ['/etc/resolv.conf', '/run/systemd/resolve/resolv.conf'],
): Promise<string[]> {
  const found = new Set<string>();
  for (const file of files) {
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    for (const m of text.matchAll(/^\s*nameserver\s+(\d+\.\d+\.\d+\.\d+)\s*$/gm)) {
      if (m[1] && isPrivateV4(m[1])) found.add(m[1]);
    }
  }
  return [...found].sort();
}

async function ipv6Enabled(): Promise<boolean> {
  const all = await fs.readFile('/proc/sys/net/ipv6/conf/all/disable_ipv6', 'utf8').catch(() => '1');
  return all.trim() === '0';
}

export interface FirewallOptions {
  run?: IptablesRunner;
  log?: (line: string) => void;
  /** Overrides the host's private nameservers (tests). */
  nameservers?: string[];
}

/** The agent's iptables rules; `problem` is '' once they are in place. */
export class TenantFirewall {
  private readonly run: IptablesRunner;
  private failure = 'not set up yet';

  constructor(private readonly options: FirewallOptions = {}) {
    this.run = options.run ?? runIptables;
  }

  /** Why tenants are not isolated on this host ('' when they are), in Chinese with the detail. */
  get problem(): string {
    return this.failure
      ? `无法设置租户网络隔离, 本节点不接受容器 (tenant network isolation is not in place: ${this.failure})`
      : '';
  }

  private async exists(binary: 'iptables' | 'ip6tables', chain: string, rule: string[]): Promise<boolean> {
    return this.run(binary, ['-C', chain, ...rule]).then(
      () => true,
      () => false,
    );
  }

  private async ensureChain(binary: 'iptables' | 'ip6tables', chain: string): Promise<void> {
    // -N fails when the chain exists (another agent, an earlier start): -L tells which.
    await this.run(binary, ['-N', chain]).catch(async (err: unknown) => {
      await this.run(binary, ['-n', '-L', chain]).catch(() => {
        throw err;
      });
    });
  }

  /** Adds a rule where missing: at the top (`insert`) or at the end. */
  private async ensureRule(
    binary: 'iptables' | 'ip6tables',
    chain: string,
    rule: string[],
    insert: boolean,
  ): Promise<void> {
    if (await this.exists(binary, chain, rule)) return;
    await this.run(binary, insert ? ['-I', chain, '1', ...rule] : ['-A', chain, ...rule]);
  }

  /**
   * Puts the chains and their rules in place (idempotent: every start re-applies them) and the
   * intra-bridge rule of each bridge in `bridges`. Never throws: `problem` says what failed.
   */
  async setup(bridges: string[] = []): Promise<void> {
    try {
      const rules = isolationRules(this.options.nameservers ?? (await privateNameservers()));
      await this.ensureChain('iptables', INPUT_CHAIN);
      await this.ensureChain('iptables', FORWARD_CHAIN);
      // Docker makes DOCKER-USER at its start and keeps what is in it; an agent that starts
      // first makes it, and Docker hooks it into FORWARD when it comes up.
      await this.ensureChain('iptables', 'DOCKER-USER');
      // Drops first, returns inserted above them: at no moment is a tenant's traffic let through
      // that the finished chain would drop.
      for (const rule of rules.inputDrops) await this.ensureRule('iptables', INPUT_CHAIN, rule, false);
      for (const rule of rules.inputReturns) await this.ensureRule('iptables', INPUT_CHAIN, rule, true);
      for (const rule of rules.forwardDrops) await this.ensureRule('iptables', FORWARD_CHAIN, rule, false);
      for (const rule of rules.forwardReturns) await this.ensureRule('iptables', FORWARD_CHAIN, rule, true);
      for (const bridge of bridges)
        await this.ensureRule('iptables', FORWARD_CHAIN, bridgeRule(bridge), true);
      for (const hook of rules.hooks) await this.ensureRule('iptables', hook.chain, hook.rule, true);
      // A tenant bridge has an IPv6 link-local address: the host's services on [::] would answer.
      if (await ipv6Enabled()) {
        await this.ensureChain('ip6tables', INPUT_CHAIN);
        for (const rule of rules.inputDrops) await this.ensureRule('ip6tables', INPUT_CHAIN, rule, false);
        for (const rule of rules.inputReturns) await this.ensureRule('ip6tables', INPUT_CHAIN, rule, true);
        await this.ensureRule('ip6tables', 'INPUT', rules.hooks[0]?.rule ?? [], true);
      }
      this.failure = '';
    } catch (err) {
      this.failure = errorMessage(err);
      this.options.log?.(this.problem);
    }
  }

  /** Lets a tenant's containers on `bridge` talk to each other. */
  async allowBridge(bridge: string): Promise<void> {
    await this.ensureRule('iptables', FORWARD_CHAIN, bridgeRule(bridge), true);
  }

  /** Drops the rule of a bridge whose network is gone (every copy of it; a bounded number of tries). */
  async forgetBridge(bridge: string): Promise<void> {
    for (
      let copy = 0;
      copy < 64 && (await this.exists('iptables', FORWARD_CHAIN, bridgeRule(bridge)));
      copy++
    ) {
      await this.run('iptables', ['-D', FORWARD_CHAIN, ...bridgeRule(bridge)]);
    }
  }
}
