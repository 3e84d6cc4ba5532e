import Docker from 'dockerode';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { ApiClient, startTestControlPlane } from './harness.js';
import { adjustBalance, balanceAndLedger, grantCoupon } from './money.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

/**
 * Money and resources under real concurrency (issue 16): requests run side by side against the
 * real API, agent and Docker engine, in fixed interleavings (no randomness), and afterwards every
 * balance equals its ledger and the GPUs and ports recorded for the node equal what Docker holds.
 */

interface View {
  container_id: string;
  status: string;
  gpu_indices: number[];
  gpus: { uuid: string }[];
  no_gpu: boolean;
  end_time: string | null;
  detail?: string;
  code?: string;
}

type Reply<T = View> = { status: number; body: T };

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
/** Custom ports (host port = container port) of this run: apart from other runs on the shared engine. */
const PORT_BASE = 12000 + (process.pid % 600) * 10;
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

beforeAll(async () => {
  cp = await startTestControlPlane();
  // The agent's own reconciliation reports often: a late report must not undo a change either.
  agent = await startTestAgent({ gpus: '8xRTX4090', reconcileIntervalMs: 1000 });
  market = await addNodeWithProduct(cp, agent, 'node-chaos');
});

// Each test starts with every GPU free.
afterEach(() => destroyAllContainers(cp));

afterAll(async () => {
  await cp?.close();
  await agent?.close();
});

async function user(name: string, yuan: number): Promise<ApiClient> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  // The trial credit is taken back: each test starts from the balance it names.
  const { balanceFen } = await balanceAndLedger(cp, name);
  await adjustBalance(cp, name, yuan - balanceFen / 100);
  return api;
}

function buy(api: ApiClient, overrides: Record<string, unknown> = {}): Promise<Reply> {
  return api.request<View>('POST', `/api/cloud-products/${market.productId}/purchase`, {
    ...purchaseBody(market, overrides),
  });
}

async function bought(api: ApiClient, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await buy(api, overrides);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.container_id;
}

const DAILY = { billing_type: 'daily', duration: 1, total_price: 45.37 };
const DAILY_FEN = 4537;

const view = async (api: ApiClient, id: string) =>
  (await api.request<View>('GET', `/api/containers/${id}`)).body;

async function until<T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** UUIDs of a Docker env's NVIDIA_VISIBLE_DEVICES ('void' and none: no GPU). */
function visibleDevices(env: string[]): string[] {
  const value = env.find((e) => e.startsWith('NVIDIA_VISIBLE_DEVICES='))?.split('=')[1] ?? '';
  return value === '' || value === 'void' || value === 'none' ? [] : value.split(',').sort();
}

interface Truth {
  id: string;
  status: string;
  billing: string;
  dbGpus: string[];
  dockerGpus: string[];
  labelGpus: string[];
  running: boolean;
  dbPorts: number[];
  dockerPorts: number[];
}

/** What the database records for each live container of the node, beside what Docker holds. */
async function truth(): Promise<Truth[]> {
  const rows: { id: string; status: string; billing_type: string }[] = await cp
    .knex('containers')
    .where({ node_id: market.nodeId })
    .whereNotIn('status', ['deleted', 'failed'])
    .select('id', 'status', 'billing_type');
  const out: Truth[] = [];
  for (const row of rows) {
    const info = await docker().getContainer(`gpucloud-${row.id}`).inspect();
    const gpus = await cp.knex('gpu_allocations').where({ container_id: row.id }).pluck('gpu_uuid');
    const ports = await cp.knex('port_allocations').where({ container_id: row.id }).pluck('host_port');
    const bindings = Object.values(info.HostConfig.PortBindings ?? {}) as { HostPort: string }[][];
    const label = info.Config.Labels['gpucloud.gpus'] ?? '';
    out.push({
      id: row.id,
      status: row.status,
      billing: row.billing_type,
      dbGpus: (gpus as string[]).sort(),
      dockerGpus: visibleDevices(info.Config.Env),
      labelGpus: label ? label.split(',').sort() : [],
      running: info.State.Running,
      dbPorts: (ports as number[]).map(Number).sort((a, b) => a - b),
      dockerPorts: bindings
        .flat()
        .map((b) => Number(b.HostPort))
        .sort((a, b) => a - b),
    });
  }
  return out;
}

/**
 * The invariants: a running container's recorded GPUs are the ones Docker gives it; no GPU is
 * recorded or running twice; a stopped container holds GPUs only if prepaid (an hourly one gave
 * them back); every container's recorded host ports are its Docker port bindings.
 */
function expectTruthful(all: Truth[]): void {
  const context = JSON.stringify(all, null, 1);
  const recorded = all.flatMap((t) => t.dbGpus);
  expect(new Set(recorded).size, context).toBe(recorded.length);
  const runningGpus = all.filter((t) => t.running).flatMap((t) => t.dockerGpus);
  expect(new Set(runningGpus).size, context).toBe(runningGpus.length);
  for (const t of all) {
    expect(t.status === 'running', `${t.id} ${context}`).toBe(t.running);
    if (t.running) {
      expect(t.dbGpus, `${t.id} ${context}`).toEqual(t.dockerGpus);
      expect(t.labelGpus, `${t.id} ${context}`).toEqual(t.dockerGpus);
    } else if (t.billing === 'hourly') {
      expect(t.dbGpus, `${t.id} ${context}`).toEqual([]);
    }
    expect(t.dbPorts, `${t.id} ${context}`).toEqual(t.dockerPorts);
  }
}

/** Every GPU and port the node has recorded belongs to a live container (nothing left behind). */
async function expectNoStrayAllocations(): Promise<void> {
  for (const table of ['gpu_allocations', 'port_allocations']) {
    const stray = await cp
      .knex(table)
      .join('containers', 'containers.id', `${table}.container_id`)
      .where(`${table}.node_id`, market.nodeId)
      .whereIn('containers.status', ['deleted', 'failed'])
      .select(`${table}.*`, 'containers.status');
    expect(stray, table).toEqual([]);
  }
}

async function expectBalanceIsLedger(usernames: string[]): Promise<void> {
  for (const name of usernames) {
    const { balanceFen, ledgerFen } = await balanceAndLedger(cp, name);
    expect(balanceFen, name).toBe(ledgerFen);
  }
}

/** A GPU conflict a purchase must never meet: the platform gave a GPU that Docker still uses. */
function expectNoGpuConflict(replies: Reply[]): void {
  for (const r of replies) expect(r.body.detail ?? '', JSON.stringify(r.body)).not.toMatch(/正被容器/);
}

async function restart(api: ApiClient, id: string, start: Record<string, unknown> = {}): Promise<Reply[]> {
  const stop = await api.request<View>('POST', `/api/containers/${id}/stop`);
  const started = await api.request<View>('POST', `/api/containers/${id}/start`, start);
  return [stop, started];
}

describe('port, mount and 无卡模式 changes while others buy', { timeout: 240_000 }, () => {
  it('keep every container its GPUs, Docker agrees with the records, and no purchase meets a GPU conflict', async () => {
    const alice = await user('chaosalice', 500);
    const bob = await user('chaosbob', 500);
    // Side by side: the purchases themselves race for GPUs and ports.
    const [a1, a2, a3, a4] = await Promise.all([
      bought(alice, { instanceName: 'a1' }),
      bought(alice, { instanceName: 'a2', ...DAILY }),
      bought(alice, { instanceName: 'a3' }),
      bought(alice, { instanceName: 'a4' }),
    ]);
    for (const id of [a1, a2, a3, a4]) expect((await view(alice, id)).status).toBe('running');
    const before = new Map<string, number[]>();
    for (const id of [a1, a2]) before.set(id, (await view(alice, id)).gpu_indices);
    const volume = await alice.request<{ id: number }>('POST', '/api/storage/volumes', {
      name: 'chaos',
      path: '/mnt/chaos',
      node_id: market.nodeId,
    });
    expect(volume.status).toBe(201);

    const purchases: Reply[] = [];
    const buyer = async (name: string) => {
      const res = await buy(bob, { instanceName: name });
      purchases.push(res);
      return res;
    };
    const changes = await Promise.all([
      alice.request<View>('POST', `/api/containers/${a1}/ports`, { ports: [PORT_BASE + 1, PORT_BASE + 2] }),
      buyer('b1'),
      alice.request<View>('POST', `/api/containers/${a2}/ports`, { ports: [PORT_BASE + 3] }),
      buyer('b2'),
      (async () => {
        const saved = await alice.request<View>('POST', `/api/containers/${a3}/mounts`, {
          mounts: [{ source: String(volume.body.id), target: '/mnt/chaos' }],
        });
        return [saved, ...(await restart(alice, a3))];
      })(),
      (async () => [
        ...(await restart(alice, a4, { no_gpu: true })),
        ...(await restart(alice, a4)),
        await alice.request<View>('POST', `/api/containers/${a1}/ports`, { ports: [PORT_BASE + 4] }),
      ])(),
      buyer('b3'),
    ]);
    // Which container is which, and what the node holds, where a change failed.
    const state = `${JSON.stringify({ a1, a2, a3, a4, bob: purchases.map((p) => p.body.container_id) })} ${JSON.stringify(await truth())}`;
    for (const r of changes.flat()) {
      if (purchases.includes(r)) continue;
      expect(r.status, `${JSON.stringify(r.body)} ${state}`).toBe(200);
    }
    expectNoGpuConflict(purchases);
    for (const r of purchases) expect(r.status, JSON.stringify(r.body)).toBe(201);

    // Every container runs with its GPUs; the port changes kept theirs.
    for (const id of [a1, a2, a3, a4]) {
      const v = await view(alice, id);
      expect(v, id).toMatchObject({ status: 'running', no_gpu: false });
      expect(v.gpu_indices, id).toHaveLength(1);
    }
    for (const [id, indices] of before) expect((await view(alice, id)).gpu_indices, id).toEqual(indices);
    for (const r of purchases) expect((await view(bob, r.body.container_id)).gpu_indices).toHaveLength(1);
    expectTruthful(await truth());

    // Late events and the agent's reconciliations (every second) change nothing: after them the
    // records still agree, and the next purchases get free GPUs.
    await new Promise((r) => setTimeout(r, 3000));
    expectTruthful(await truth());
    const more = await Promise.all([buy(bob, { instanceName: 'b4' })]);
    expectNoGpuConflict(more);
    expect(more[0]?.status, JSON.stringify(more[0]?.body)).toBe(201);
    const b4 = await view(bob, more[0]?.body.container_id ?? '');
    expect(b4.status, JSON.stringify(b4)).toBe('running');
    expectTruthful(await truth());
    await expectNoStrayAllocations();
    await expectBalanceIsLedger(['chaosalice', 'chaosbob']);
  });
});

describe('parallel renewals', { timeout: 180_000 }, () => {
  it('of one container and of two containers of one user: no 5xx, each paid once or refused in Chinese, expiry moved by what was paid', async () => {
    const carol = await user('chaoscarol', 2 * 45.37);
    const [c1, c2] = await Promise.all([
      bought(carol, { instanceName: 'c1', ...DAILY }),
      bought(carol, { instanceName: 'c2', ...DAILY }),
    ]);
    // Enough for exactly 15 of the 25 renewals below.
    await adjustBalance(cp, 'chaoscarol', (15 * DAILY_FEN) / 100);
    const end = async (id: string) => new Date((await view(carol, id)).end_time ?? 0).getTime();
    const ends = new Map([
      [c1, await end(c1)],
      [c2, await end(c2)],
    ]);
    const renew = (id: string) =>
      carol
        .request<{ status: string; amount: number; order_id: number; detail?: string }>(
          'POST',
          `/api/containers/${id}/renew`,
          { duration: 1, payment_method: 'balance' },
        )
        .then((res) => ({ id, ...res }));
    const targets = [...Array.from({ length: 20 }, () => c1), ...Array.from({ length: 5 }, () => c2)];
    // Interleaved: c2's renewals fall among c1's.
    const order = [0, 20, 1, 2, 3, 21, 4, 5, 6, 22, 7, 8, 9, 23, 10, 11, 12, 24, 13, 14, 15, 16, 17, 18, 19];
    const replies = await Promise.all(order.map((i) => renew(targets[i] as string)));
    for (const r of replies) {
      expect([200, 402], JSON.stringify(r.body)).toContain(r.status);
      if (r.status === 402) expect(r.body.detail).toBe('余额不足，请先充值');
      else expect(r.body).toMatchObject({ status: 'paid', amount: 45.37 });
    }
    const paid = replies.filter((r) => r.status === 200);
    expect(paid).toHaveLength(15);
    // One charge per paid renewal, each on its own order; nothing for the refused ones.
    const charges = await cp
      .knex('ledger_entries')
      .whereIn(
        'order_id',
        paid.map((r) => r.body.order_id),
      )
      .select('order_id', 'amount_fen');
    expect(charges).toHaveLength(15);
    for (const c of charges) expect(Number(c.amount_fen)).toBe(-DAILY_FEN);
    expect(
      await cp.knex('container_orders').where({ order_type: 'renewal' }).whereNot('status', 'paid').count(),
    ).toEqual([{ count: 0 }]);
    await expectBalanceIsLedger(['chaoscarol']);
    expect((await balanceAndLedger(cp, 'chaoscarol')).balanceFen).toBe(0);
    for (const id of [c1, c2]) {
      const n = paid.filter((r) => r.id === id).length;
      expect(await end(id), id).toBe((ends.get(id) ?? 0) + n * 24 * 3600_000);
    }
  });
});

describe('a parallel money suite', { timeout: 300_000 }, () => {
  it('purchases, renewals, top-ups, coupons, port and mount changes of several users at once keep balance = ledger and Docker = records', async () => {
    const names = ['chaosdan', 'chaoserin', 'chaosfay'];
    const users = await Promise.all(names.map((n) => user(n, 200)));
    await grantCoupon(cp, names, { name: '并发券', amount: 10, minAmount: 40 });
    // Each user selects their own coupon: it applies to the first purchase or top-up reaching 40 yuan.
    const couponOf = async (name: string) =>
      (
        await cp
          .knex('coupons')
          .join('users', 'users.id', 'coupons.user_id')
          .where('users.username', name)
          .first('coupons.id')
      ).id as number;
    for (const [i, api] of users.entries()) {
      const selected = await api.request('POST', `/api/coupons/${await couponOf(names[i] as string)}/use`);
      expect(selected.status).toBe(200);
    }
    // Everyone owns an hourly and a daily container before the storm.
    const owned = await Promise.all(
      users.map(async (api, i) => ({
        hourly: await bought(api, { instanceName: `h${i}` }),
        daily: await bought(api, { instanceName: `d${i}`, ...DAILY }),
      })),
    );
    for (const [i, o] of owned.entries()) {
      for (const id of [o.hourly, o.daily]) {
        const v = await view(users[i] as ApiClient, id);
        expect(v.status, JSON.stringify(v)).toBe('running');
      }
    }
    const volumes = await Promise.all(
      users.map((api) =>
        api.request<{ id: number }>('POST', '/api/storage/volumes', {
          name: 'data',
          path: '/mnt/data',
          node_id: market.nodeId,
        }),
      ),
    );

    const topUp = async (api: ApiClient, yuan: number) => {
      const created = await api.request<{ out_trade_no: string }>('POST', '/api/billing/wechat/create', {
        amount: yuan,
        payment_method: 'wechat',
        description: '账户充值',
      });
      expect(created.status).toBe(201);
      // Paid twice at once: credited once.
      return Promise.all([
        api.request('POST', `/api/billing/wechat/sandbox/${created.body.out_trade_no}/pay`),
        api.request('POST', `/api/billing/wechat/sandbox/${created.body.out_trade_no}/pay`),
      ]);
    };
    const renewals: { id: string; status: number }[] = [];
    const renew = async (api: ApiClient, id: string) => {
      const res = await api.request('POST', `/api/containers/${id}/renew`, {
        duration: 1,
        payment_method: 'balance',
      });
      renewals.push({ id, status: res.status });
      return res;
    };
    const ends = await Promise.all(
      owned.map(async (o, i) =>
        new Date((await view(users[i] as ApiClient, o.daily)).end_time ?? 0).getTime(),
      ),
    );
    const purchases: Reply[] = [];
    const replies = await Promise.all(
      users.flatMap((api, i) => {
        const mine = owned[i] as { hourly: string; daily: string };
        const volume = volumes[i]?.body.id;
        return [
          topUp(api, 100 + i),
          renew(api, mine.daily),
          // Two of the three buy one more (8 GPUs: 6 held, 2 sold now).
          ...(i < 2
            ? [
                buy(api, { instanceName: `n${i}` }).then((r) => {
                  purchases.push(r);
                  return r;
                }),
              ]
            : []),
          api.request('POST', `/api/containers/${mine.hourly}/ports`, { ports: [PORT_BASE + 100 + i * 10] }),
          renew(api, mine.daily),
          // The daily one keeps its GPU across a restart: its new mount applies, then its ports change.
          (async () => {
            const saved = await api.request('POST', `/api/containers/${mine.daily}/mounts`, {
              mounts: [{ source: String(volume), target: '/mnt/data' }],
            });
            return [
              saved,
              ...(await restart(api, mine.daily)),
              await api.request('POST', `/api/containers/${mine.daily}/ports`, {
                ports: [PORT_BASE + 101 + i * 10, PORT_BASE + 102 + i * 10],
              }),
            ];
          })(),
          renew(api, mine.daily),
        ];
      }),
    );
    const flat = replies.flat(2) as Reply<unknown>[];
    for (const r of flat) expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
    for (const r of flat) expect([200, 201], JSON.stringify(r.body)).toContain(r.status);
    expectNoGpuConflict(purchases);

    // Metering runs over it all, then the books and the node are checked.
    await cp.jobs.settlement?.settle(1);
    await expectBalanceIsLedger(names);
    for (const [i, name] of names.entries()) {
      const id = (await cp.knex('users').where({ username: name }).first('id')).id as number;
      const credited = await cp
        .knex('ledger_entries')
        .where({ user_id: id, kind: 'recharge' })
        .sum<{ sum: string }[]>({ sum: 'amount_fen' });
      expect(Number(credited[0]?.sum), name).toBe((100 + i) * 100);
      // The coupon was used exactly once, whatever came first.
      const used = await cp.knex('ledger_entries').where({ user_id: id, kind: 'coupon' }).count();
      expect(used, name).toEqual([{ count: 1 }]);
      const daily = (owned[i] as { daily: string }).daily;
      const n = renewals.filter((r) => r.id === daily && r.status === 200).length;
      expect(n).toBe(3);
      const end = new Date((await view(users[i] as ApiClient, daily)).end_time ?? 0).getTime();
      expect(end, name).toBe((ends[i] as number) + n * 24 * 3600_000);
    }
    await until('every container settled', truth, (all) => all.every((t) => t.status === 'running'));
    expectTruthful(await truth());
    await new Promise((r) => setTimeout(r, 2000));
    expectTruthful(await truth());
    await expectNoStrayAllocations();
  });
});
