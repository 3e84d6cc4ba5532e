// Crashes in the middle of purchases: the control plane and the agent run as processes of their
// own (node src/main.ts, as npm start and systemd run them) and are killed with SIGKILL while
// purchases are being provisioned, then started again. Afterwards every purchase has ended with
// its container and one charge, or with neither (failed, the charge given back); what the
// platform records of GPUs and ports is what Docker holds; no container runs unrecorded; every
// balance equals its ledger.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freeLoopbackPort } from '../../scripts/lib/free-port.mjs';
import { createKnex } from '../src/db/knex.js';
import type { RunningControlPlane } from '../src/platform.js';
import { reserveAgentPortRange } from './agents.js';
import { ADMIN, ApiClient, createTestDatabase, startControlPlaneOn } from './harness.js';
import { adjustBalance } from './money.js';
import { addNodeWithProduct, type MarketFixture, purchaseBody } from './purchase.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LEASE_MS = 3000;
const USERS = ['crash_a', 'crash_b', 'crash_c'];

const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

/** A process of the platform, with the last lines it printed (shown when a test fails). */
class Proc {
  child: ChildProcess | undefined;
  readonly lines: string[] = [];

  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly args: string[],
    private readonly env: Record<string, string>,
  ) {}

  start(): void {
    const child = spawn(process.execPath, ['--import', 'tsx', this.script, ...this.args], {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (d: Buffer) => {
      for (const line of d.toString().split('\n').filter(Boolean)) {
        this.lines.push(`[${this.name}] ${line}`);
        if (this.lines.length > 200) this.lines.shift();
      }
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.child = child;
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let knex: Knex;
let databaseUrl: string;
const secretKey = randomBytes(32);
let cpPort: number;
let agentPort: number;
let nodeName: string;
let market: MarketFixture;
let cp: Proc;
let agent: Proc;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-crash-'));
const clients = new Map<string, ApiClient>();

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  knex = createKnex(databaseUrl, { min: 0, max: 4 });
  agentPort = await freeLoopbackPort();
  cpPort = await freeLoopbackPort();
  const token = randomBytes(18).toString('hex');
  const portStart = reserveAgentPortRange();
  nodeName = `test-crash-${token.slice(0, 6)}`;
  agent = new Proc(
    'agent',
    'node-agent/src/main.ts',
    [
      '--listen',
      `127.0.0.1:${agentPort}`,
      '--simulate-gpus',
      '8xRTX4090',
      '--bind-address',
      '127.0.0.1',
      '--public-host',
      '127.0.0.1',
      '--port-range',
      `${portStart}-${portStart + 199}`,
      '--volume-root',
      path.join(scratch, 'volumes'),
      '--state-dir',
      path.join(scratch, 'state'),
      '--toolbox-dir',
      inject('toolboxDir'),
      '--node-name',
      nodeName,
      '--tenant-network-idle',
      '0',
    ],
    { AGENT_TOKEN: token, DOCKER_HOST: inject('dockerHost') },
  );
  agent.start();
  await until('the agent', () => connects(agentPort));

  // Users, money and the node's product, through a control plane in this process, then closed:
  // the one under test runs on its own.
  const setup: RunningControlPlane = await startControlPlaneOn(databaseUrl, { secretKey });
  try {
    market = await addNodeWithProduct(
      setup,
      {
        address: `127.0.0.1:${agentPort}`,
        token,
        portStart,
        volumeRoot: '',
        stateDir: '',
        close: async () => {},
      },
      nodeName,
    );
    for (const name of USERS) {
      const api = new ApiClient(setup.url);
      await api.register(name);
      await adjustBalance(setup, name, 1000);
    }
  } finally {
    await setup.close();
  }

  cp = new Proc('control-plane', 'control-plane/src/main.ts', [], {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: secretKey.toString('hex'),
    PORT: String(cpPort),
    HOST: '127.0.0.1',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LEASE_MS: String(LEASE_MS),
    HEARTBEAT_INTERVAL_MS: '500',
    MONITOR_SYNC_INTERVAL_MS: '1000',
  });
  await startControlPlane();
}, 180_000);

afterAll(async () => {
  // Whatever is left goes through the platform's own destroy, then anything it could not reach.
  await cp?.kill('SIGTERM');
  await agent?.kill('SIGTERM');
  const list = await docker().listContainers({
    all: true,
    filters: { label: [`gpucloud.node=${nodeName}`] },
  });
  for (const c of list)
    await docker()
      .getContainer(c.Id)
      .remove({ force: true })
      .catch(() => undefined);
  await knex?.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

function connects(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(undefined));
  });
}

async function startControlPlane(): Promise<void> {
  cp.start();
  await until('the control plane', async () =>
    (await fetch(`http://127.0.0.1:${cpPort}/api/health`)).ok ? true : undefined,
  );
  clients.clear();
  for (const name of USERS) {
    const api = new ApiClient(`http://127.0.0.1:${cpPort}`);
    await api.login(name, 'secret123');
    clients.set(name, api);
  }
}

/**
 * Sends `count` purchases spread over the users (not waiting for their answers: some are cut by
 * the crash), and resolves once the node is creating one of them, the moment to crash.
 */
async function purchasesUnderWay(count: number, tag: string): Promise<Promise<unknown>[]> {
  const sent = Array.from({ length: count }, (_, i) => {
    const api = clients.get(USERS[i % USERS.length] as string) as ApiClient;
    return api
      .request(
        'POST',
        `/api/cloud-products/${market.productId}/purchase`,
        purchaseBody(market, { instanceName: `${tag}-${i}` }),
      )
      .catch((err: unknown) => err); // cut by the crash: the platform decides what it bought
  });
  await until(
    'a purchase being provisioned',
    async () => {
      const open = await knex('containers')
        .where('name', 'like', `${tag}-%`)
        .whereIn('status', ['creating', 'pulling'])
        .first('id');
      return open ? true : undefined;
    },
    30_000,
  );
  return sent;
}

/** The purchases the platform recorded for `tag`. */
async function recorded(tag: string): Promise<string[]> {
  return knex('containers').where('name', 'like', `${tag}-%`).pluck('id');
}

/** Until no purchase is being provisioned any more. */
async function allSettled(): Promise<void> {
  await until(
    'every purchase to end',
    async () => {
      const open = await knex('containers')
        .whereIn('status', ['creating', 'pulling'])
        .count<{ count: string }[]>();
      return Number(open[0]?.count) === 0 ? true : undefined;
    },
    90_000,
  );
}

interface DockerView {
  id: string;
  running: boolean;
  gpus: string[];
  ports: number[];
}

async function dockerContainers(): Promise<Map<string, DockerView>> {
  const list = await docker().listContainers({
    all: true,
    filters: { label: [`gpucloud.node=${nodeName}`] },
  });
  const byId = new Map<string, DockerView>();
  for (const c of list) {
    const inspect = await docker().getContainer(c.Id).inspect();
    const id = inspect.Config.Labels?.['gpucloud.container-id'] ?? '';
    // A reconfigure's parked copy carries the same id under another name; none is expected here.
    if (inspect.Name !== `/gpucloud-${id}`) continue;
    const env = inspect.Config.Env ?? [];
    const visible = env.find((e) => e.startsWith('NVIDIA_VISIBLE_DEVICES='))?.split('=')[1] ?? '';
    const bindings = Object.values(inspect.HostConfig.PortBindings ?? {}) as { HostPort: string }[][];
    byId.set(id, {
      id,
      running: inspect.State.Running,
      gpus: visible && visible !== 'void' && visible !== 'none' ? visible.split(',').sort() : [],
      ports: bindings
        .flat()
        .map((b) => Number(b.HostPort))
        .sort((a, b) => a - b),
    });
  }
  return byId;
}

/** Everything the platform records agrees with Docker and with the money. */
async function expectConsistent(ids: string[]): Promise<{ running: number; failed: number }> {
  const held = await dockerContainers();
  const rows = await knex('containers')
    .whereIn('id', ids)
    .select('id', 'status', 'user_id', 'purchase_order_id', 'billing_type');
  let running = 0;
  let failed = 0;
  for (const row of rows) {
    const gpus = (await knex('gpu_allocations').where({ container_id: row.id }).pluck('gpu_uuid')).sort();
    const ports = (await knex('port_allocations').where({ container_id: row.id }).pluck('host_port')).sort(
      (a: number, b: number) => a - b,
    );
    // What the purchase cost, net: one charge, or a charge and its refund.
    const [net] = await knex('ledger_entries')
      .where({ user_id: row.user_id })
      .where((q) => q.where('container_id', row.id).orWhere('order_id', row.purchase_order_id ?? -1))
      .sum<{ sum: string | null }[]>({ sum: 'amount_fen' });
    const c = held.get(row.id);
    if (row.status === 'failed') {
      failed++;
      expect(c, `failed purchase ${row.id} still has a container`).toBeUndefined();
      expect(gpus).toEqual([]);
      expect(ports).toEqual([]);
      expect(Number(net?.sum ?? 0), `failed purchase ${row.id} kept money`).toBe(0);
    } else {
      expect(row.status, `purchase ${row.id}`).toBe('running');
      running++;
      expect(c?.running, `running purchase ${row.id} has no running container`).toBe(true);
      expect(c?.gpus).toEqual(gpus);
      expect(c?.ports).toEqual(ports);
      const [json] = await knex('containers').where({ id: row.id }).pluck('ports');
      expect(
        (json as { host_port: number }[]).map((p) => p.host_port).sort((a, b) => a - b),
        `running purchase ${row.id}: the ports it shows are the ones reserved`,
      ).toEqual(ports);
      expect(
        Number(net?.sum ?? 0),
        `running purchase ${row.id}: charged, never refunded`,
      ).toBeLessThanOrEqual(0);
      if (row.billing_type === 'hourly') {
        // Metered from 运行中 (one open meter), charged by the settlements.
        const meters = await knex('container_meters')
          .where({ container_id: row.id })
          .whereNotNull('running_since');
        expect(meters, `running purchase ${row.id}: one open meter`).toHaveLength(1);
      }
    }
  }
  expect(rows).toHaveLength(ids.length);
  // No container on the node that the platform does not count as live.
  const live = new Set(
    await knex('containers')
      .where('node_id', market.nodeId)
      .whereNotIn('status', ['failed', 'deleted'])
      .pluck('id'),
  );
  for (const id of held.keys()) expect(live.has(id), `container ${id} runs unrecorded`).toBe(true);
  // No GPU twice (the table's key also says so) and every allocated GPU is one Docker holds for it.
  const allocated = await knex('gpu_allocations')
    .where({ node_id: market.nodeId })
    .select('gpu_uuid', 'container_id');
  expect(new Set(allocated.map((a) => a.gpu_uuid)).size).toBe(allocated.length);
  for (const a of allocated) expect(held.get(a.container_id)?.gpus ?? []).toContain(a.gpu_uuid);
  // Balance = ledger, for everyone.
  const accounts = await knex('billing_accounts').select('user_id', 'balance_fen');
  for (const acc of accounts) {
    const [sum] = await knex('ledger_entries')
      .where({ user_id: acc.user_id })
      .sum<{ sum: string | null }[]>({ sum: 'amount_fen' });
    expect(Number(acc.balance_fen), `user ${acc.user_id}: balance = ledger`).toBe(Number(sum?.sum ?? 0));
  }
  return { running, failed };
}

async function destroyAll(ids: string[]): Promise<void> {
  const admin = new ApiClient(`http://127.0.0.1:${cpPort}`);
  await admin.login(ADMIN.username, ADMIN.password);
  for (const id of ids) {
    const row = await knex('containers').where({ id }).first('status');
    if (row && row.status !== 'failed' && row.status !== 'deleted') {
      const res = await admin.request('DELETE', `/api/admin/containers/${id}`);
      expect(res.status, `destroy ${id}`).toBeLessThan(300);
    }
  }
}

const report = () => [...cp.lines.slice(-40), ...agent.lines.slice(-40)].join('\n');

/** Waits until everything agrees (a container taken over may still be starting), else fails with the words. */
async function eventuallyConsistent(ids: string[]): Promise<{ running: number; failed: number }> {
  try {
    return await until(
      'the platform to agree with Docker',
      () => expectConsistent(ids).catch(() => undefined),
      60_000,
    );
  } catch {
    try {
      return await expectConsistent(ids); // the assertion that still fails, with its words
    } catch (failure) {
      throw new Error(`${failure instanceof Error ? failure.message : String(failure)}\n${report()}`);
    }
  }
}

describe('a crash in the middle of purchases', () => {
  it('kill -9 of the control plane: after its restart each purchase has its container and charge, or neither', async () => {
    const sent = await purchasesUnderWay(6, 'cp');
    await cp.kill('SIGKILL');
    await Promise.all(sent);
    const ids = await recorded('cp');
    const left = await knex('containers')
      .whereIn('id', ids)
      .whereIn('status', ['creating', 'pulling'])
      .pluck('id');
    expect(left.length, 'purchases left mid-way by the crash').toBeGreaterThan(0);
    await startControlPlane();
    await allSettled();
    const outcome = await eventuallyConsistent(ids);
    expect(outcome.running + outcome.failed).toBe(ids.length);
    await destroyAll(ids);
  }, 180_000);

  it('kill -9 of the agent: after its restart each purchase has its container and charge, or neither', async () => {
    const sent = await purchasesUnderWay(6, 'agent');
    await agent.kill('SIGKILL');
    await Promise.all(sent);
    await allSettled();
    const ids = await recorded('agent');
    expect(ids.length).toBeGreaterThan(0);
    agent.start();
    await until('the agent', () => connects(agentPort));
    // The node monitor reconciles on reconnection: containers the agent made for purchases that
    // failed meanwhile are removed.
    await until(
      'the node to be consistent',
      async () =>
        (await expectConsistent(ids).then(
          () => true,
          () => false,
        ))
          ? true
          : undefined,
      60_000,
    ).catch(async (err) => {
      await expectConsistent(ids); // the assertion that still fails, with its words
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n${report()}`);
    });
    await destroyAll(ids);
  });

  it('a container the node kept for a purchase the platform ended is removed when the node comes back', async () => {
    const api = clients.get(USERS[0] as string) as ApiClient;
    // The control plane reconnects to the agent restarted by the test before: until then a
    // purchase is refused (503, nothing bought).
    const bought = await until('a purchase the node takes', async () => {
      const res = await api.request<{ container_id: string }>(
        'POST',
        `/api/cloud-products/${market.productId}/purchase`,
        purchaseBody(market, { instanceName: 'kept-0' }),
      );
      if (res.status === 503) return undefined;
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res;
    });
    await allSettled();
    const id = bought.body.container_id;
    expect((await knex('containers').where({ id }).first('status')).status).toBe('running');
    // The platform ended it while the node was away (as a purchase whose create timed out).
    await knex.transaction(async (trx) => {
      await trx('containers').where({ id }).update({ status: 'failed', start_error: '测试' });
      await trx('gpu_allocations').where({ container_id: id }).delete();
      await trx('port_allocations').where({ container_id: id }).delete();
    });
    await agent.kill('SIGKILL');
    agent.start();
    await until('the agent', () => connects(agentPort));
    await until('the kept container to go', async () =>
      (await dockerContainers()).has(id as string) ? undefined : true,
    );
    expect((await knex('containers').where({ id }).first('status')).status).toBe('failed');
  }, 120_000);
});

/** A purchase that runs, once the control plane takes purchases again (503 until it reaches the node). */
async function running(user: string, overrides: Record<string, unknown>): Promise<string> {
  const api = clients.get(user) as ApiClient;
  const bought = await until('a purchase the node takes', async () => {
    const res = await api.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market, overrides),
    );
    if (res.status === 503) return undefined;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.container_id;
  });
  await until('it to run', async () =>
    (await knex('containers').where({ id: bought }).first('status'))?.status === 'running' ? true : undefined,
  );
  return bought;
}

/** Until the row is held by a change the node is making (the moment to crash). */
async function held(id: string): Promise<void> {
  await until(
    `container ${id} held by its change`,
    async () => {
      const row = await knex('containers').where({ id }).first('status_changed_at');
      return row?.status_changed_at && new Date(row.status_changed_at).getTime() > Date.now()
        ? true
        : undefined;
    },
    30_000,
  );
}

/** Custom ports (host port = container port) of this run, apart from other runs on the shared engine. */
const PORT_BASE = 15000 + (process.pid % 400) * 10;
const DAILY = { billing_type: 'daily', duration: 1, total_price: 45.37 };
const DAY_MS = 24 * 3600_000;

describe('a crash in the middle of a port change (the node recreates the container)', () => {
  it('kill -9 of the control plane: after its restart the row shows the ports and GPUs Docker holds, and it runs', async () => {
    const id = await running('crash_a', { instanceName: 'ports-cp' });
    const gpusBefore = (await knex('gpu_allocations').where({ container_id: id }).pluck('gpu_uuid')).sort();
    expect(gpusBefore).toHaveLength(1);
    const api = clients.get('crash_a') as ApiClient;
    const change = api
      .request('POST', `/api/containers/${id}/ports`, { ports: [PORT_BASE + 1, PORT_BASE + 2] })
      .catch((err: unknown) => err);
    await held(id);
    await cp.kill('SIGKILL');
    await change;
    // Left as the crash left it: both sets of ports reserved, the old ones shown.
    expect((await knex('port_allocations').where({ container_id: id })).length).toBeGreaterThan(1);
    await startControlPlane();
    const outcome = await eventuallyConsistent([id]);
    expect(outcome).toEqual({ running: 1, failed: 0 });
    // The node finished the change: the new ports are the container's, with the GPU it had.
    const ports = await knex('port_allocations').where({ container_id: id }).pluck('host_port');
    expect(ports).toEqual(expect.arrayContaining([PORT_BASE + 1, PORT_BASE + 2]));
    expect((await knex('gpu_allocations').where({ container_id: id }).pluck('gpu_uuid')).sort()).toEqual(
      gpusBefore,
    );
    await destroyAll([id]);
  }, 180_000);

  it('kill -9 of the agent: after its restart the container runs again, and the row shows what Docker holds', async () => {
    const id = await running('crash_b', { instanceName: 'ports-agent' });
    const gpusBefore = (await knex('gpu_allocations').where({ container_id: id }).pluck('gpu_uuid')).sort();
    const api = clients.get('crash_b') as ApiClient;
    const portsBefore = (
      await knex('port_allocations').where({ container_id: id }).pluck('host_port')
    ).sort();
    const change = api.request<{ detail?: string }>('POST', `/api/containers/${id}/ports`, {
      ports: [PORT_BASE + 3],
    });
    // Killed between the old container's parking and its removal: the switch never completed.
    await until(
      'the old container parked by the recreate',
      async () => {
        const parked = await docker().listContainers({
          all: true,
          filters: { name: [`gpucloud-${id}-superseded-`] },
        });
        return parked.length > 0 ? true : undefined;
      },
      30_000,
    );
    await agent.kill('SIGKILL');
    const answer = await change;
    expect(answer.status, JSON.stringify(answer.body)).toBe(503);
    agent.start();
    await until('the agent', () => connects(agentPort));
    const outcome = await eventuallyConsistent([id]);
    expect(outcome).toEqual({ running: 1, failed: 0 });
    // The agent put the old container back at its start; the row gave the new port back.
    expect(agent.lines.join('\n')).toMatch(/the old container is back as gpucloud-/);
    expect((await knex('port_allocations').where({ container_id: id }).pluck('host_port')).sort()).toEqual(
      portsBefore,
    );
    expect((await knex('gpu_allocations').where({ container_id: id }).pluck('gpu_uuid')).sort()).toEqual(
      gpusBefore,
    );
    await destroyAll([id]);
  }, 180_000);
});

describe('a crash in the middle of renewals', () => {
  it('kill -9 of the control plane: each renewal is paid once with its day added, or not at all', async () => {
    const id = await running('crash_c', { instanceName: 'renew', ...DAILY });
    const endOf = async () =>
      new Date((await knex('containers').where({ id }).first('expires_at')).expires_at);
    const end = await endOf();
    const api = clients.get('crash_c') as ApiClient;
    const renewals = Array.from({ length: 20 }, () =>
      api
        .request('POST', `/api/containers/${id}/renew`, { duration: 1, payment_method: 'balance' })
        .catch((err: unknown) => err),
    );
    await until('a renewal paid', async () => {
      const paid = await knex('container_orders')
        .where({ container_id: id, order_type: 'renewal', status: 'paid' })
        .first('id');
      return paid ? true : undefined;
    });
    await cp.kill('SIGKILL');
    await Promise.all(renewals);
    await startControlPlane();
    const orders = await knex('container_orders')
      .where({ container_id: id, order_type: 'renewal' })
      .select('id', 'status', 'amount_fen');
    const paid = orders.filter((o) => o.status === 'paid');
    expect(paid.length).toBeGreaterThan(0);
    // A renewal cut by the crash left nothing: no order waiting, no charge without its day.
    expect(orders.filter((o) => o.status !== 'paid')).toEqual([]);
    const charges = await knex('ledger_entries').whereIn(
      'order_id',
      orders.map((o) => o.id),
    );
    expect(charges).toHaveLength(paid.length);
    for (const c of charges) expect(Number(c.amount_fen)).toBe(-4537);
    expect((await endOf()).getTime()).toBe(end.getTime() + paid.length * DAY_MS);
    await eventuallyConsistent([id]);
    await destroyAll([id]);
  }, 180_000);
});
