// One bridge network per tenant (owner) on this node: a user's containers reach each other and
// the internet, never another user's containers or the host (firewall.ts). The network is made
// at the owner's first container and removed once it has had no container for `idleMs` (making
// one costs a purchase ~0.3 s, so a user who rents again soon finds it there); containers created
// before tenant networks stay on Docker's default bridge until their next recreate (reconfigure).
import { createHash } from 'node:crypto';
import { KeyedLock } from '../containers/keyed-lock.js';
import { dockerMessage } from '../docker/docker-errors.js';
import { failedPrecondition } from '../errors.js';
import { TENANT_BRIDGE_PREFIX, type TenantFirewall } from './firewall.js';
import { type Cidr, formatCidr, hostRoutes, numberToIp, parseCidr, pickSubnet } from './subnet-pool.js';

export const NETWORK_LABELS = {
  tenant: 'gpucloud.tenant-network',
  node: 'gpucloud.node',
  ownerId: 'gpucloud.owner-id',
} as const;

export interface TenantNetworkSummary {
  name: string;
  bridge: string;
  subnets: string[];
  labels: Record<string, string>;
}

/** A tenant network as the agent asks Docker to make it. */
export interface TenantNetworkSpec {
  name: string;
  bridge: string;
  subnet: string;
  gateway: string;
  labels: Record<string, string>;
}

/** The Docker calls tenant networks need (DockerodeContainerClient has them). */
export interface NetworkEngine {
  /** Every network of the engine (their subnets decide which are free). */
  listNetworks(): Promise<TenantNetworkSummary[]>;
  /** Undefined when there is no such network. */
  inspectNetwork(name: string): Promise<TenantNetworkSummary | undefined>;
  createNetwork(spec: TenantNetworkSpec): Promise<void>;
  /** False when there was no such network. */
  removeNetwork(name: string): Promise<boolean>;
  /** Docker ids of the containers (any state) that use the network. */
  containersOnNetwork(name: string): Promise<string[]>;
}

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex');

/**
 * `gpucloud-t-<owner>-<node hash>`: the node part keeps two agents that share one engine (tests)
 * apart. Owner ids Docker would not take as a name (or very long ones) are hashed.
 */
export function tenantNetworkName(nodeName: string, ownerId: string): string {
  const owner = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(ownerId) ? ownerId : hash(ownerId).slice(0, 16);
  return `gpucloud-t-${owner}-${hash(nodeName).slice(0, 8)}`;
}

/** The Linux bridge of a tenant network: `gpct` + 11 hex digits (interface names have 15 characters). */
export function tenantBridgeName(nodeName: string, ownerId: string): string {
  return `${TENANT_BRIDGE_PREFIX}${hash(nodeName, ownerId).slice(0, 11)}`;
}

export interface TenantNetworksOptions {
  engine: NetworkEngine;
  firewall: TenantFirewall;
  nodeName: string;
  pool: Cidr;
  log?: (line: string) => void;
  /** The host's routes (tests may replace /proc/net/route). */
  routes?: () => Promise<Cidr[]>;
  /** How long a network without containers is kept before it is removed (0: at once). */
  idleMs?: number;
}

export class TenantNetworks {
  /** Per owner: a network is never removed while a container is being created on it. */
  readonly lock = new KeyedLock();
  /** Owners whose unused network is due for removal, with the timer that removes it. */
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly options: TenantNetworksOptions) {}

  get firewall(): TenantFirewall {
    return this.options.firewall;
  }

  /** The agent's start: the rules, with the intra-bridge rule of every network this node has. */
  async init(): Promise<void> {
    const mine = await this.options.engine.listNetworks().then(
      (list) =>
        list.filter(
          (n) =>
            n.labels[NETWORK_LABELS.tenant] === 'true' &&
            n.labels[NETWORK_LABELS.node] === this.options.nodeName,
        ),
      (err: unknown) => {
        this.options.log?.(`tenant networks: cannot list networks: ${dockerMessage(err)}`);
        return [];
      },
    );
    await this.options.firewall.setup(mine.map((n) => n.bridge).filter(Boolean));
    // Networks left unused (their containers removed while the agent was away, or by hand)
    // go after the idle time like any other.
    for (const network of mine) {
      const owner = network.labels[NETWORK_LABELS.ownerId];
      if (!owner || tenantNetworkName(this.options.nodeName, owner) !== network.name) continue;
      const used = await this.options.engine.containersOnNetwork(network.name).catch(() => ['unknown']);
      if (used.length === 0) await this.release(owner);
    }
  }

  /** Stops the idle timers (the agent's shutdown); the networks stay for the next start. */
  close(): void {
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
  }

  /**
   * Runs `create` with the owner's network (made when missing), under the owner's lock. The
   * host must isolate tenants: without the firewall in place nothing is created.
   */
  async withNetwork<T>(ownerId: string, create: (network: string) => Promise<T>): Promise<T> {
    this.cancelIdle(ownerId);
    return this.lock.run(ownerId, async () => {
      // A failure at the start (a lock held too long, iptables installed since) is tried again.
      if (this.options.firewall.problem) await this.options.firewall.setup();
      const problem = this.options.firewall.problem;
      if (problem) throw failedPrecondition(problem);
      const name = await this.ensure(ownerId);
      return create(name);
    });
  }

  private async ensure(ownerId: string): Promise<string> {
    const { engine, nodeName } = this.options;
    const name = tenantNetworkName(nodeName, ownerId);
    const bridge = tenantBridgeName(nodeName, ownerId);
    const existing = await engine.inspectNetwork(name);
    if (existing) {
      await this.options.firewall.allowBridge(existing.bridge || bridge);
      return name;
    }
    // Rules re-checked at each new network: a firewall reload since the start is repaired.
    await this.options.firewall.setup([bridge]);
    if (this.options.firewall.problem) throw failedPrecondition(this.options.firewall.problem);
    for (let attempt = 0; ; attempt++) {
      const used = [
        ...(await (this.options.routes ?? hostRoutes)()),
        ...(await engine.listNetworks()).flatMap((n) =>
          n.subnets.flatMap((s) => {
            try {
              return [parseCidr(s)];
            } catch {
              return []; // IPv6
            }
          }),
        ),
      ];
      const subnet = pickSubnet(this.options.pool, used);
      if (!subnet) {
        throw failedPrecondition(
          `租户网络地址池已用完 (no free /24 left in the tenant subnet pool ${formatCidr(this.options.pool)})`,
        );
      }
      try {
        await engine.createNetwork({
          name,
          bridge,
          subnet: formatCidr(subnet),
          gateway: numberToIp(subnet.base + 1),
          labels: {
            [NETWORK_LABELS.tenant]: 'true',
            [NETWORK_LABELS.node]: nodeName,
            [NETWORK_LABELS.ownerId]: ownerId,
          },
        });
        this.options.log?.(`tenant network ${name} (${formatCidr(subnet)}, bridge ${bridge}) created`);
        return name;
      } catch (err) {
        // Another agent on the same engine made it a moment ago: use theirs.
        if (await engine.inspectNetwork(name)) return name;
        // A subnet another engine took since the routes were read: try another one.
        if (attempt < 3 && /overlap|in use|conflict/i.test(dockerMessage(err))) continue;
        throw err;
      }
    }
  }

  /**
   * The owner's last container has gone: the network is removed after the idle time if no
   * container uses it then (at once where the idle time is 0; best effort, logged).
   */
  async release(ownerId: string): Promise<void> {
    const idleMs = this.options.idleMs ?? 0;
    if (idleMs <= 0) return this.removeUnused(ownerId);
    this.cancelIdle(ownerId);
    const timer = setTimeout(() => {
      this.idleTimers.delete(ownerId);
      void this.removeUnused(ownerId);
    }, idleMs);
    timer.unref();
    this.idleTimers.set(ownerId, timer);
  }

  private cancelIdle(ownerId: string): void {
    const timer = this.idleTimers.get(ownerId);
    if (!timer) return;
    clearTimeout(timer);
    this.idleTimers.delete(ownerId);
  }

  /** Removes the owner's network when no container uses it. */
  private async removeUnused(ownerId: string): Promise<void> {
    const { engine, nodeName } = this.options;
    const name = tenantNetworkName(nodeName, ownerId);
    await this.lock
      .run(ownerId, async () => {
        const network = await engine.inspectNetwork(name);
        if (!network) return;
        if ((await engine.containersOnNetwork(name)).length > 0) return;
        await engine.removeNetwork(name);
        await this.options.firewall.forgetBridge(network.bridge || tenantBridgeName(nodeName, ownerId));
        this.options.log?.(`tenant network ${name} removed`);
      })
      .catch((err: unknown) =>
        this.options.log?.(`remove tenant network ${name} failed: ${dockerMessage(err)}`),
      );
  }
}
