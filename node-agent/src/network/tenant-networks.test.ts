import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeIptables } from '../../test/fake-iptables.js';
import { TenantFirewall } from './firewall.js';
import { parseCidr } from './subnet-pool.js';
import {
  NETWORK_LABELS,
  type NetworkEngine,
  type TenantNetworkSummary,
  TenantNetworks,
  tenantBridgeName,
  tenantNetworkName,
} from './tenant-networks.js';

/** An engine holding networks and the containers on them in memory, counting creates. */
function memoryEngine() {
  const networks = new Map<string, TenantNetworkSummary>();
  const containers = new Map<string, string[]>();
  let creates = 0;
  const engine: NetworkEngine = {
    listNetworks: async () => [...networks.values()],
    inspectNetwork: async (name) => networks.get(name),
    createNetwork: async (spec) => {
      creates++;
      networks.set(spec.name, {
        name: spec.name,
        bridge: spec.bridge,
        subnets: [spec.subnet],
        labels: spec.labels,
      });
    },
    removeNetwork: async (name) => networks.delete(name),
    containersOnNetwork: async (name) => containers.get(name) ?? [],
  };
  return { engine, networks, containers, creates: () => creates };
}

const NODE = 'node-a';

function tenantNetworks(engine: NetworkEngine, idleMs: number) {
  return new TenantNetworks({
    engine,
    firewall: new TenantFirewall({ run: fakeIptables().run }),
    nodeName: NODE,
    pool: parseCidr('10.128.0.0/12'),
    routes: async () => [],
    idleMs,
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('TenantNetworks idle time', () => {
  it('removes an unused network at once when the idle time is 0', async () => {
    const m = memoryEngine();
    const networks = tenantNetworks(m.engine, 0);
    await networks.withNetwork('7', async () => undefined);
    expect(m.networks.has(tenantNetworkName(NODE, '7'))).toBe(true);
    await networks.release('7');
    expect(m.networks.size).toBe(0);
  });

  it('keeps an unused network for the idle time, reuses it meanwhile, then removes it', async () => {
    vi.useFakeTimers();
    const m = memoryEngine();
    const networks = tenantNetworks(m.engine, 60_000);
    const name = tenantNetworkName(NODE, '7');
    await networks.withNetwork('7', async () => undefined);
    await networks.release('7');
    await vi.advanceTimersByTimeAsync(59_000);
    expect(m.networks.has(name)).toBe(true);
    // The next container within the idle time finds it: no second create, and the countdown stops.
    await networks.withNetwork('7', async (network) => expect(network).toBe(name));
    expect(m.creates()).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(m.networks.has(name)).toBe(true);
    // Released again: gone a full idle time later, not before.
    await networks.release('7');
    await vi.advanceTimersByTimeAsync(59_000);
    expect(m.networks.has(name)).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(m.networks.has(name)).toBe(false);
  });

  it('never removes a network a container is on when the idle time runs out', async () => {
    vi.useFakeTimers();
    const m = memoryEngine();
    const networks = tenantNetworks(m.engine, 1_000);
    const name = tenantNetworkName(NODE, '7');
    await networks.withNetwork('7', async () => undefined);
    await networks.release('7');
    m.containers.set(name, ['abc']); // e.g. made by another agent sharing the engine
    await vi.advanceTimersByTimeAsync(2_000);
    expect(m.networks.has(name)).toBe(true);
  });

  it("at the start, counts down the unused networks of this node only (not another node's)", async () => {
    vi.useFakeTimers();
    const m = memoryEngine();
    const label = (node: string, owner: string) => ({
      [NETWORK_LABELS.tenant]: 'true',
      [NETWORK_LABELS.node]: node,
      [NETWORK_LABELS.ownerId]: owner,
    });
    const add = (node: string, owner: string) =>
      m.networks.set(tenantNetworkName(node, owner), {
        name: tenantNetworkName(node, owner),
        bridge: tenantBridgeName(node, owner),
        subnets: [],
        labels: label(node, owner),
      });
    add(NODE, 'unused');
    add(NODE, 'busy');
    add('node-b', 'other');
    m.containers.set(tenantNetworkName(NODE, 'busy'), ['abc']);
    const networks = tenantNetworks(m.engine, 5_000);
    await networks.init();
    expect(m.networks.size).toBe(3);
    await vi.advanceTimersByTimeAsync(5_000);
    expect([...m.networks.keys()].sort()).toEqual(
      [tenantNetworkName(NODE, 'busy'), tenantNetworkName('node-b', 'other')].sort(),
    );
  });

  it('stops counting down at close (the network stays for the next start)', async () => {
    vi.useFakeTimers();
    const m = memoryEngine();
    const networks = tenantNetworks(m.engine, 1_000);
    await networks.withNetwork('7', async () => undefined);
    await networks.release('7');
    networks.close();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(m.networks.size).toBe(1);
  });
});
