// Tenant isolation from inside real containers: each user's containers sit on a network of their
// own, and the agent's iptables rules keep them from other users' containers and from the host.
// Two users (A with two containers, B with one whose SSH port is published), a TCP server of the
// test on the host bound to 0.0.0.0 (the stand-in for the control plane, the agent's gRPC port,
// PostgreSQL), and probes with busybox nc from A's container.
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import type { ContainerInfo__Output, HostInfo__Output } from '@gpucloud/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuShareNanoCpus } from '../src/containers/resource-share.js';
import { FORWARD_CHAIN, INPUT_CHAIN } from '../src/network/firewall.js';
import { tenantBridgeName, tenantNetworkName } from '../src/network/tenant-networks.js';
import {
  createRequest,
  execIn,
  freeHostPort,
  grpcError,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
  uniqueId,
} from './helpers.js';

const PORT = 8080;

/** What a TCP connect from the container prints: the server's first line, or CLOSED. */
async function probe(t: TestAgent, fromDockerId: string, host: string, port: number): Promise<string> {
  const out = await execIn(
    t,
    fromDockerId,
    `out=$(nc -w 3 ${host} ${port} </dev/null 2>/dev/null | head -c 200); [ -n "$out" ] && echo "$out" || echo CLOSED`,
  );
  return out.trim();
}

interface Addresses {
  ip: string;
  gateway: string;
  network: string;
}

async function addresses(t: TestAgent, dockerId: string): Promise<Addresses> {
  const inspect = await t.docker.getContainer(dockerId).inspect();
  const [network, settings] = Object.entries(inspect.NetworkSettings.Networks)[0] ?? [];
  return { ip: settings?.IPAddress ?? '', gateway: settings?.Gateway ?? '', network: network ?? '' };
}

/** A busybox server in the container answering `reply` to every connection on PORT. */
async function serve(t: TestAgent, dockerId: string, reply: string): Promise<void> {
  await execIn(
    t,
    dockerId,
    // -ll: busybox nc keeps listening and runs the program for each connection.
    `nc -ll -p ${PORT} -e echo ${reply} >/dev/null 2>&1 </dev/null &`,
  );
}

function hostAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a?.address ?? '');
}

describe('tenant isolation', () => {
  let t: TestAgent;
  const ownerA = uniqueId('ownerA');
  const ownerB = uniqueId('ownerB');
  let a1: ContainerInfo__Output;
  let a2: ContainerInfo__Output;
  let b1: ContainerInfo__Output;
  let sshPortB: number;
  let hostServer: net.Server;
  let hostPort: number;

  beforeAll(async () => {
    // Published ports on every address, so that B's SSH port is also reachable through the
    // host's own addresses: the path A must not get through.
    t = await startTestAgent({ bindAddress: '0.0.0.0', layerMeasureIntervalMs: 1000 });
    hostPort = await freeHostPort();
    hostServer = net.createServer((socket) => socket.end('HOST-SECRET\n'));
    await new Promise<void>((resolve) => hostServer.listen(hostPort, '0.0.0.0', resolve));
    sshPortB = await freeHostPort();
    const create = (ownerId: string, extra: Parameters<typeof testSpec>[1] = {}) =>
      createRequest(t, {
        spec: testSpec(t, { ownerId, ...extra }),
        rootPassword: 'S3cret-pass',
        authorizedKeys: [],
        start: true,
      });
    [a1, a2, b1] = await Promise.all([
      create(ownerA),
      create(ownerA),
      create(ownerB, {
        ports: [{ containerPort: 22, hostPort: sshPortB, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
      }),
    ]);
    for (const c of [a1, a2, b1]) expect(c.state).toBe('CONTAINER_STATE_RUNNING');
    await serve(t, a2.dockerId, 'A2-HELLO');
    await serve(t, b1.dockerId, 'B-SECRET');
  });
  afterAll(async () => {
    await t?.close();
    hostServer?.close();
  });

  it('puts each owner on a network of its own', async () => {
    const [ia1, ia2, ib1] = await Promise.all([a1, a2, b1].map((c) => addresses(t, c.dockerId)));
    const node = t.agent.config.nodeName;
    expect(ia1?.network).toBe(tenantNetworkName(node, ownerA));
    expect(ia2?.network).toBe(tenantNetworkName(node, ownerA));
    expect(ib1?.network).toBe(tenantNetworkName(node, ownerB));
    // From the tenant pool (10.128.0.0/12), one /24 per owner.
    expect(ia1?.ip).toMatch(/^10\.(12[89]|13\d|14[0-3])\./);
    expect(ia1?.gateway).not.toBe(ib1?.gateway);
    const network = await t.docker.getNetwork(tenantNetworkName(node, ownerA)).inspect();
    expect(network.Options?.['com.docker.network.bridge.name']).toBe(tenantBridgeName(node, ownerA));
  });

  it('gives a container the CPU share of its GPUs and, where the driver allows, a writable-layer limit', async () => {
    const inspect = await t.docker.getContainer(b1.dockerId).inspect();
    const info = await unaryCall<HostInfo__Output>((cb) => t.client.getHostInfo({}, t.md, cb));
    // No nano_cpus in the spec: no GPU = one GPU's share of the 8 simulated, at least one CPU.
    expect(inspect.HostConfig.NanoCpus).toBe(cpuShareNanoCpus(0, 8, os.availableParallelism()));
    expect(inspect.Config.Labels?.['gpucloud.cpu-share']).toBe('auto');
    const storageOpt = (inspect.HostConfig as { StorageOpt?: Record<string, string> }).StorageOpt;
    if (storageOpt?.size) {
      expect(storageOpt.size).toBe('100G');
    } else {
      expect(info.warnings).toContainEqual(expect.stringContaining('容器可写层大小无法限制'));
    }
    expect(info.unsafeReason).toBe('');
  });

  it('measures the writable layer where the driver cannot limit it, and reports it with the allowance', async () => {
    const storageOpt = (
      (await t.docker.getContainer(a1.dockerId).inspect()).HostConfig as {
        StorageOpt?: Record<string, string>;
      }
    ).StorageOpt;
    const layer = async () => {
      const info: ContainerInfo__Output = await unaryCall((cb) =>
        t.client.inspectContainer({ containerId: a1.containerId }, t.md, cb),
      );
      return { bytes: Number(info.writableLayerBytes), allowance: Number(info.writableLayerAllowanceBytes) };
    };
    expect((await layer()).allowance).toBe(100 * 1024 ** 3); // --container-layer-size 100G
    if (storageOpt?.size) {
      expect((await layer()).bytes).toBe(0); // Docker enforces it: nothing to measure
      return;
    }
    await execIn(t, a1.dockerId, 'dd if=/dev/zero of=/root/fill bs=1048576 count=6 2>/dev/null; sync');
    await expect
      .poll(async () => (await layer()).bytes, { timeout: 15_000, interval: 250 })
      .toBeGreaterThanOrEqual(6 * 1024 * 1024);
  });

  it("lets an owner's containers reach each other, by address and by name", async () => {
    const ia2 = await addresses(t, a2.dockerId);
    expect(await probe(t, a1.dockerId, ia2.ip, PORT)).toBe('A2-HELLO');
    expect(await probe(t, a1.dockerId, `gpucloud-${a2.containerId}`, PORT)).toBe('A2-HELLO');
  });

  it("keeps A from B's unpublished port and B's SSH server", async () => {
    const ib1 = await addresses(t, b1.dockerId);
    // The probe itself works: B reaches its own server.
    expect(await probe(t, b1.dockerId, ib1.ip, PORT)).toBe('B-SECRET');
    expect(await probe(t, a1.dockerId, ib1.ip, PORT)).toBe('CLOSED');
    expect(await probe(t, a1.dockerId, ib1.ip, 22)).toBe('CLOSED');
  });

  it("keeps A from the host: the gateway, the host's other addresses, B's gateway", async () => {
    const ia1 = await addresses(t, a1.dockerId);
    const ib1 = await addresses(t, b1.dockerId);
    const targets = [ia1.gateway, ib1.gateway, ...hostAddresses()];
    expect(targets.length).toBeGreaterThan(2);
    for (const host of new Set(targets)) {
      expect(`${host}: ${await probe(t, a1.dockerId, host, hostPort)}`).toBe(`${host}: CLOSED`);
    }
  });

  it("keeps A from B's published SSH port through the host's addresses, which still answers from outside", async () => {
    const ia1 = await addresses(t, a1.dockerId);
    for (const host of new Set([ia1.gateway, ...hostAddresses()])) {
      expect(`${host}: ${await probe(t, a1.dockerId, host, sshPortB)}`).toBe(`${host}: CLOSED`);
    }
    const banner = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(sshPortB, '127.0.0.1');
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString());
      });
      socket.once('error', reject);
      socket.setTimeout(5000, () => reject(new Error('no SSH banner')));
    });
    expect(banner).toMatch(/^SSH-2\.0-/);
  });

  it('drops what goes to the metadata range and private ranges (the rules are in place)', () => {
    const check = (bin: string, chain: string, rule: string[]) =>
      spawnSync(bin, ['-w', '5', '-C', chain, ...rule]).status;
    expect(check('iptables', FORWARD_CHAIN, ['-i', 'gpct+', '-d', '169.254.0.0/16', '-j', 'DROP'])).toBe(0);
    expect(check('iptables', FORWARD_CHAIN, ['-i', 'gpct+', '-d', '10.0.0.0/8', '-j', 'DROP'])).toBe(0);
    expect(check('iptables', INPUT_CHAIN, ['-i', 'gpct+', '-j', 'DROP'])).toBe(0);
    expect(check('iptables', 'INPUT', ['-i', 'gpct+', '-j', INPUT_CHAIN])).toBe(0);
    expect(check('iptables', 'DOCKER-USER', ['-i', 'gpct+', '-j', FORWARD_CHAIN])).toBe(0);
  });

  it("removes an owner's network with its last container", async () => {
    const node = t.agent.config.nodeName;
    const bridge = tenantBridgeName(node, ownerA);
    const allowed = () =>
      spawnSync('iptables', ['-w', '5', '-C', FORWARD_CHAIN, '-i', bridge, '-o', bridge, '-j', 'RETURN'])
        .status;
    expect(allowed()).toBe(0);
    await unaryCall((cb) => t.client.removeContainer({ containerId: a1.containerId, force: true }, t.md, cb));
    await t.docker.getNetwork(tenantNetworkName(node, ownerA)).inspect(); // A2 still uses it
    await unaryCall((cb) => t.client.removeContainer({ containerId: a2.containerId, force: true }, t.md, cb));
    await expect(t.docker.getNetwork(tenantNetworkName(node, ownerA)).inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(allowed()).not.toBe(0);
  });
});

describe('a host whose iptables cannot be set', () => {
  let t: TestAgent;
  beforeAll(async () => {
    t = await startTestAgent(
      {},
      {
        iptables: () => Promise.reject(new Error('iptables: command not found')),
      },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports the host unsafe and creates no container', async () => {
    const info = await unaryCall<HostInfo__Output>((cb) => t.client.getHostInfo({}, t.md, cb));
    expect(info.unsafeReason).toContain('无法设置租户网络隔离');
    expect(info.unsafeReason).toContain('iptables: command not found');
    const err = await grpcError(
      createRequest(t, { spec: testSpec(t), rootPassword: '', authorizedKeys: [], start: false }),
    );
    expect(err.details).toContain('无法设置租户网络隔离');
  });
});

describe('a container of the default bridge (created before tenant networks)', () => {
  let before: TestAgent;
  let after: TestAgent;
  const nodeName = `test-${uniqueId('node')}`;
  const ownerId = uniqueId('owner');
  afterAll(async () => {
    await after?.close();
    await before?.close();
  });

  it('keeps running there and moves to its owner network at its next recreate', async () => {
    // An agent without tenant networks stands in for the agent before them.
    before = await startTestAgent({ nodeName, tenantIsolation: 'off' });
    const created = await createRequest(before, {
      spec: testSpec(before, { ownerId }),
      rootPassword: '',
      authorizedKeys: [],
      start: true,
    });
    expect((await addresses(before, created.dockerId)).network).toBe('bridge');
    const info = await unaryCall<HostInfo__Output>((cb) => before.client.getHostInfo({}, before.md, cb));
    expect(info.warnings).toContainEqual(expect.stringContaining('租户网络隔离已关闭'));

    after = await startTestAgent({ nodeName });
    const moved: ContainerInfo__Output = await unaryCall((cb) =>
      after.client.reconfigureContainer(
        { containerId: created.containerId, setMounts: true, mounts: [], restartIfRunning: true },
        after.md,
        cb,
      ),
    );
    expect(moved.state).toBe('CONTAINER_STATE_RUNNING');
    expect((await addresses(after, moved.dockerId)).network).toBe(tenantNetworkName(nodeName, ownerId));
    await unaryCall((cb) =>
      after.client.removeContainer({ containerId: created.containerId, force: true }, after.md, cb),
    );
    await expect(
      after.docker.getNetwork(tenantNetworkName(nodeName, ownerId)).inspect(),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});

describe("an owner's network without containers", () => {
  const nodeName = `test-${uniqueId('node')}`;
  const ownerId = uniqueId('owner');
  const agents: TestAgent[] = [];
  afterAll(async () => {
    for (const agent of agents) await agent.close();
  });
  const networkId = async (t: TestAgent) =>
    (await t.docker.getNetwork(tenantNetworkName(nodeName, ownerId)).inspect()).Id as string;
  const gone = (t: TestAgent) =>
    expect
      .poll(
        () =>
          t.docker
            .getNetwork(tenantNetworkName(nodeName, ownerId))
            .inspect()
            .then(
              () => 'there',
              (err: { statusCode?: number }) => (err.statusCode === 404 ? 'gone' : String(err)),
            ),
        { timeout: 15_000, interval: 250 },
      )
      .toBe('gone');
  const createAndRemove = async (t: TestAgent) => {
    const c = await createRequest(t, {
      spec: testSpec(t, { ownerId }),
      rootPassword: '',
      authorizedKeys: [],
      start: true,
    });
    await unaryCall((cb) => t.client.removeContainer({ containerId: c.containerId, force: true }, t.md, cb));
  };

  it('is kept for the idle time and reused by the next container, then removed', async () => {
    const t = await startTestAgent({ nodeName, tenantNetworkIdle: 3 });
    agents.push(t);
    await createAndRemove(t);
    const first = await networkId(t);
    await createAndRemove(t); // within the idle time: the same network, not a new one
    expect(await networkId(t)).toBe(first);
    await gone(t);
  });

  it("is counted down from the agent's start when it was left unused (a restart, a docker rm by hand)", async () => {
    const t = await startTestAgent({ nodeName, tenantNetworkIdle: 3600 });
    agents.push(t);
    await createAndRemove(t);
    await t.agent.close(); // the network stays: its countdown ends with the agent
    await networkId(t);
    const restarted = await startTestAgent({ nodeName, tenantNetworkIdle: 1 });
    agents.push(restarted);
    await gone(restarted);
  });
});
