import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeFor } from '../src/modules/billing/metering.js';
import type { RunningControlPlane } from '../src/platform.js';
import { fakeNode } from './fake-containers.js';
import { startTestControlPlane } from './harness.js';

// The money of a settlement pass, pinned: a varied fleet (several users, rates, GPU counts, the
// no-GPU mode, containers stopped or deleted behind the hooks' back, meters opened by the pass,
// a rate change, a meter without an order, users running dry) is settled three times on a fixed
// clock, and everything money shows is compared with the snapshot taken with the
// container-by-container settlement it replaced: balances, the low-balance flags, meters,
// containers' and orders' totals, the billing records screen, the stops asked for.

let cp: RunningControlPlane;
let nodeId: number;

beforeAll(async () => {
  // The test runs the passes (settle(slot, now)); the timer never asks for one meanwhile.
  cp = await startTestControlPlane({ meteringIntervalMs: 24 * 3_600_000 });
  nodeId = await fakeNode(cp);
});
afterAll(async () => {
  await cp?.close();
});

/** Whole seconds, so every time below is relative to it and the snapshot is the same on any day. */
const T0 = Math.floor(Date.now() / 1000) * 1000 - 6 * 3_600_000;
const at = (ms: number) => new Date(T0 + ms);
const MIN = 60_000;

interface Fleet {
  users: Record<string, number>;
}

async function addUser(name: string, balanceFen: number | null, thresholdFen = 10_000): Promise<number> {
  const [row] = await cp.knex('users').insert({ username: name, password_hash: 'x' }).returning('id');
  const id = Number(row.id);
  if (balanceFen !== null)
    await cp.knex('billing_accounts').insert({
      user_id: id,
      balance_fen: balanceFen,
      alert_threshold_fen: thresholdFen,
    });
  return id;
}

async function addContainer(p: {
  id: string;
  userId: number;
  priceFen: number;
  gpus: number;
  noGpu?: boolean;
  noGpuPriceFen?: number;
  status?: string;
  startedAt: Date;
  stoppedAt?: Date;
  deletedAt?: Date;
  billingType?: string;
  order?: boolean;
}): Promise<number | null> {
  await cp.knex('containers').insert({
    id: p.id,
    user_id: p.userId,
    node_id: nodeId,
    name: `${p.id}-名`,
    image: 'fake',
    status: p.status ?? 'running',
    billing_type: p.billingType ?? 'hourly',
    price_fen: p.priceFen,
    no_gpu: p.noGpu ?? false,
    no_gpu_price_fen: p.noGpuPriceFen ?? 0,
    gpu_count: p.gpus,
    password_encrypted: 'x',
    started_at: p.startedAt,
    stopped_at: p.stoppedAt ?? null,
    deleted_at: p.deletedAt ?? null,
  });
  if (p.order === false) return null;
  const [order] = await cp
    .knex('container_orders')
    .insert({
      order_no: `OS${p.id}`,
      user_id: p.userId,
      container_id: p.id,
      order_type: 'purchase',
      billing_type: p.billingType ?? 'hourly',
      product_name: `产品 ${p.id}`,
      gpu_count: p.gpus,
      unit_price_fen: p.priceFen,
      status: 'running',
      start_time: p.startedAt,
    })
    .returning('id');
  return Number(order.id);
}

async function addMeter(p: {
  containerId: string;
  userId: number;
  orderId: number | null;
  rate: number;
  since: Date | null;
  billedMs?: number;
  chargedFen?: number;
}) {
  await cp.knex('container_meters').insert({
    container_id: p.containerId,
    user_id: p.userId,
    order_id: p.orderId,
    rate_fen_per_hour: p.rate,
    running_since: p.since,
    billed_ms: p.billedMs ?? 0,
    charged_fen: p.chargedFen ?? 0,
  });
}

async function buildFleet(): Promise<Fleet> {
  const users = {
    rich: await addUser('st_rich', 50_000_000),
    // Falls under its alert threshold in the first pass, then runs dry.
    mid: await addUser('st_mid', 12_000, 11_000),
    // Dry from the first pass: arrears, and its hourly containers are stopped.
    poor: await addUser('st_poor', 300),
    // Warned before (flag set), still under its threshold.
    warned: await addUser('st_warned', 5_000),
    // No account row yet: the pass creates it (balance zero, then arrears).
    fresh: await addUser('st_fresh', null),
    idle: await addUser('st_idle', 1_000),
  };
  await cp
    .knex('billing_accounts')
    .where({ user_id: users.warned })
    .update({ balance_alert_sent_at: at(0) });

  // rich: many containers, rates and GPU counts, odd milliseconds.
  const rates = [
    [199, 1],
    [260, 2],
    [333, 3],
    [1_999, 8],
    [7, 1],
    [12_345, 4],
  ] as const;
  for (const [i, [price, gpus]] of rates.entries()) {
    const id = `st-rich-${i}`;
    const orderId = await addContainer({ id, userId: users.rich, priceFen: price, gpus, startedAt: at(0) });
    await addMeter({
      containerId: id,
      userId: users.rich,
      orderId,
      rate: price * gpus,
      since: at(i * 7_777 + 13),
    });
  }
  // No-GPU mode: billed at the no-GPU price.
  const noGpuOrder = await addContainer({
    id: 'st-rich-nogpu',
    userId: users.rich,
    priceFen: 500,
    gpus: 2,
    noGpu: true,
    noGpuPriceFen: 45,
    startedAt: at(0),
  });
  await addMeter({
    containerId: 'st-rich-nogpu',
    userId: users.rich,
    orderId: noGpuOrder,
    rate: 45,
    since: at(1_234),
  });
  // A rate change: a closed meter at the old rate, an open one at the new; one order for both.
  const changed = await addContainer({
    id: 'st-rich-rate',
    userId: users.rich,
    priceFen: 300,
    gpus: 2,
    startedAt: at(0),
  });
  await addMeter({
    containerId: 'st-rich-rate',
    userId: users.rich,
    orderId: changed,
    rate: 250,
    since: null,
    billedMs: 1_800_001,
    chargedFen: 125,
  });
  await addMeter({
    containerId: 'st-rich-rate',
    userId: users.rich,
    orderId: changed,
    rate: 600,
    since: at(30 * MIN),
  });
  // A meter without an order.
  await addContainer({
    id: 'st-rich-noorder',
    userId: users.rich,
    priceFen: 88,
    gpus: 1,
    startedAt: at(0),
    order: false,
  });
  await addMeter({
    containerId: 'st-rich-noorder',
    userId: users.rich,
    orderId: null,
    rate: 88,
    since: at(59_999),
  });
  // Stopped behind the hooks' back (the meter still open): billed up to stopped_at.
  const stopped = await addContainer({
    id: 'st-rich-stopped',
    userId: users.rich,
    priceFen: 990,
    gpus: 1,
    status: 'stopped',
    startedAt: at(0),
    stoppedAt: at(3 * 3_600_000 + 4_321),
  });
  await addMeter({
    containerId: 'st-rich-stopped',
    userId: users.rich,
    orderId: stopped,
    rate: 990,
    since: at(2 * MIN),
  });
  // Deleted behind the hooks' back: billed up to deleted_at.
  const deleted = await addContainer({
    id: 'st-rich-deleted',
    userId: users.rich,
    priceFen: 410,
    gpus: 2,
    status: 'deleted',
    startedAt: at(0),
    deletedAt: at(4 * 3_600_000 + 999),
  });
  await addMeter({
    containerId: 'st-rich-deleted',
    userId: users.rich,
    orderId: deleted,
    rate: 820,
    since: at(3 * MIN),
  });
  // Running without a meter (a hook that failed): metered from its start.
  await addContainer({
    id: 'st-rich-unmetered',
    userId: users.rich,
    priceFen: 150,
    gpus: 1,
    startedAt: at(5 * MIN + 7),
  });
  // Metered before, no meter open now: metered from the pass.
  const reopened = await addContainer({
    id: 'st-rich-reopen',
    userId: users.rich,
    priceFen: 170,
    gpus: 1,
    startedAt: at(0),
  });
  await addMeter({
    containerId: 'st-rich-reopen',
    userId: users.rich,
    orderId: reopened,
    rate: 170,
    since: null,
    billedMs: 600_000,
    chargedFen: 28,
  });
  // A prepaid container: never metered.
  await addContainer({
    id: 'st-rich-daily',
    userId: users.rich,
    priceFen: 4_537,
    gpus: 1,
    startedAt: at(0),
    billingType: 'daily',
  });

  for (const [name, rate, gpus] of [
    ['mid', 1_000, 1],
    ['poor', 200, 1],
    ['warned', 700, 1],
    ['fresh', 120, 1],
  ] as const) {
    for (let i = 0; i < 2; i++) {
      const id = `st-${name}-${i}`;
      const orderId = await addContainer({
        id,
        userId: users[name],
        priceFen: rate + i,
        gpus,
        startedAt: at(0),
      });
      await addMeter({ containerId: id, userId: users[name], orderId, rate: rate + i, since: at(i * 1_001) });
    }
  }
  // A running meter that starts after the pass (a clock ahead): charged nothing yet, kept.
  const ahead = await addContainer({
    id: 'st-idle-ahead',
    userId: users.idle,
    priceFen: 300,
    gpus: 1,
    startedAt: at(0),
  });
  await addMeter({
    containerId: 'st-idle-ahead',
    userId: users.idle,
    orderId: ahead,
    rate: 300,
    since: at(5 * 3_600_000),
  });
  return { users };
}

const rel = (d: Date | null) => (d ? d.getTime() - T0 : null);

async function state(fleet: Fleet) {
  const k = cp.knex;
  const names = Object.fromEntries(Object.entries(fleet.users).map(([n, id]) => [id, n]));
  const userIds = Object.values(fleet.users);
  const accounts = await k('billing_accounts')
    .whereIn('user_id', userIds)
    .orderBy('user_id')
    .select('user_id', 'balance_fen', 'balance_alert_sent_at');
  const ledgerSums = await k('ledger_entries')
    .whereIn('user_id', userIds)
    .groupBy('user_id')
    .select(
      'user_id',
      k.raw('sum(amount_fen)::bigint as sum'),
      k.raw('min(balance_after_fen)::bigint as low'),
    );
  const meters = await k('container_meters')
    .where('container_id', 'like', 'st-%')
    .orderBy(['container_id', 'rate_fen_per_hour'])
    .select('container_id', 'rate_fen_per_hour', 'billed_ms', 'charged_fen', 'running_since', 'order_id');
  const containers = await k('containers')
    .where('id', 'like', 'st-%')
    .orderBy('id')
    .select('id', 'total_cost_fen');
  const orders = await k('container_orders')
    .where('container_id', 'like', 'st-%')
    .orderBy('container_id')
    .select('id', 'container_id', 'amount_fen', 'billed_seconds', 'status');
  const orderOf = new Map(orders.map((o) => [Number(o.id), o.container_id as string]));
  const records: Record<string, unknown[]> = {};
  for (const [name, id] of Object.entries(fleet.users)) {
    const page = await cp.services.billing.records.records({ userId: id, offset: 0, limit: 1000 });
    records[name] = page.items
      .map((r) => ({
        source: r.source,
        type: r.type,
        description: r.description,
        duration: r.duration,
        amount: r.amount,
        payment_method: r.payment_method,
        status: r.status,
        order: r.order_id === null ? null : orderOf.get(r.order_id),
      }))
      .sort((a, b) => `${a.description}|${a.amount}`.localeCompare(`${b.description}|${b.amount}`));
    expect(page.total).toBe(page.items.length);
  }
  const stops = await k.raw(
    "select data->>'containerId' as id from pgboss.job where name = 'billing-container-stop' order by 1",
  );
  return {
    accounts: accounts.map((a) => ({
      user: names[Number(a.user_id)],
      balance: Number(a.balance_fen),
      warned: a.balance_alert_sent_at !== null,
    })),
    ledger: ledgerSums
      .map((l) => ({ user: names[Number(l.user_id)], sum: Number(l.sum), low: Number(l.low) }))
      .sort((a, b) => String(a.user).localeCompare(String(b.user))),
    meters: meters.map((m) => ({
      container: m.container_id,
      rate: Number(m.rate_fen_per_hour),
      billed_ms: Number(m.billed_ms),
      charged: Number(m.charged_fen),
      since: rel(m.running_since),
      order: m.order_id === null ? null : orderOf.get(Number(m.order_id)),
    })),
    containers: containers.map((c) => ({ id: c.id, cost: Number(c.total_cost_fen) })),
    orders: orders.map((o) => ({
      container: o.container_id,
      amount: Number(o.amount_fen),
      billed_seconds: Number(o.billed_seconds),
      status: o.status,
    })),
    records,
    stops: stops.rows.map((r: { id: string }) => r.id),
  };
}

describe('a settlement pass', () => {
  it('charges what the container-by-container settlement charged, to the fen', async () => {
    const fleet = await buildFleet();
    const settle = cp.jobs.settlement;
    if (!settle) throw new Error('no settlement job');
    const passes = [3 * 3_600_000 + 17, 4 * 3_600_000 + 1_800_500, 5 * 3_600_000 + 3 * MIN + 333];
    const after: unknown[] = [];
    for (const [i, ms] of passes.entries()) {
      expect(await settle.settle(1_000 + i, at(ms))).toBe(true);
      after.push(await state(fleet));
    }
    // A slot settles once.
    expect(await settle.settle(1_000, at(passes[2] ?? 0))).toBe(false);
    // Every balance is its ledger (the accounts were funded outside it: the sums are differences).
    const last = after[2] as Awaited<ReturnType<typeof state>>;
    expect(last.accounts.find((a) => a.user === 'fresh')?.balance).toBe(
      last.ledger.find((l) => l.user === 'fresh')?.sum,
    );
    expect(after).toMatchSnapshot();
    // One ledger row per user and pass, its containers' charges kept as its lines; the first pass
    // books a second one for the container it found running without a meter.
    const rows = await cp
      .knex('ledger_entries')
      .where({ user_id: fleet.users.rich, kind: 'expense' })
      .orderBy('id')
      .select('id', 'amount_fen', 'container_id');
    expect(rows).toHaveLength(passes.length + 1);
    expect(rows[1]?.container_id).toBe('st-rich-unmetered');
    for (const row of rows.filter((_, i) => i !== 1)) {
      const lines = await cp.knex('ledger_lines').where({ entry_id: row.id }).orderBy('line');
      expect(lines.length).toBeGreaterThan(1);
      expect(row.container_id).toBeNull();
      expect(lines.reduce((sum, l) => sum + Number(l.amount_fen), 0)).toBe(Number(row.amount_fen));
    }
  });

  it('settles any number of meters in the same statements, each charged as chargeFor says', async () => {
    const metering = cp.services.billing.metering;
    const queriesOf = async (now: Date) => {
      let n = 0;
      const count = () => {
        n++;
      };
      cp.knex.on('query', count);
      try {
        await metering.settleAll(now);
      } finally {
        cp.knex.off('query', count);
      }
      return n;
    };
    // The fleet of the test above stays open: settled first, so both passes below meet it settled.
    const base = 7 * 3_600_000;
    await metering.settleAll(at(base));
    const addUsers = async (prefix: string, users: number, perUser: number) => {
      const meters: { id: string; rate: number; since: number }[] = [];
      for (let u = 0; u < users; u++) {
        const userId = await addUser(`${prefix}_${u}`, 100_000_000);
        for (let i = 0; i < perUser; i++) {
          const id = `${prefix}-${u}-${i}`;
          const rate = 37 + u * 101 + i * 1_003;
          const since = base + 1 + u * 977 + i * 13;
          const orderId = await addContainer({ id, userId, priceFen: rate, gpus: 1, startedAt: at(since) });
          await addMeter({ containerId: id, userId, orderId, rate, since: at(since) });
          meters.push({ id, rate, since });
        }
      }
      return meters;
    };
    const few = await addUsers('sq_few', 1, 2);
    const fewQueries = await queriesOf(at(base + 3_600_000));
    const many = await addUsers('sq_many', 12, 5);
    const manyQueries = await queriesOf(at(base + 2 * 3_600_000 + 499));
    // 60 more meters (12 more users), not one more statement.
    expect(manyQueries).toBe(fewQueries);
    for (const [meters, end] of [
      [few, base + 2 * 3_600_000 + 499],
      [many, base + 2 * 3_600_000 + 499],
    ] as const) {
      for (const m of meters) {
        const row = await cp.knex('container_meters').where({ container_id: m.id }).first();
        const billed = end - m.since;
        expect(Number(row.billed_ms)).toBe(billed);
        expect(Number(row.charged_fen)).toBe(chargeFor(billed, m.rate));
        const c = await cp.knex('containers').where({ id: m.id }).first();
        expect(Number(c.total_cost_fen)).toBe(chargeFor(billed, m.rate));
        const o = await cp.knex('container_orders').where({ container_id: m.id }).first();
        expect(Number(o.amount_fen)).toBe(chargeFor(billed, m.rate));
        expect(Number(o.billed_seconds)).toBe(Math.round(billed / 1000));
      }
    }
  });

  it('a stop whose clock reads before a settlement that took the meter first closes where that one billed to', async () => {
    const base = 20 * 3_600_000;
    const userId = await addUser('st_race', 10_000_000);
    const rate = 360_000;
    const orderId = await addContainer({
      id: 'st-race',
      userId,
      priceFen: rate,
      gpus: 1,
      startedAt: at(base),
    });
    await addMeter({ containerId: 'st-race', userId, orderId, rate, since: at(base) });
    const metering = cp.services.billing.metering;
    await metering.settleAll(at(base + 10_500));
    const entries = await cp
      .knex('ledger_entries')
      .where({ user_id: userId })
      .count<{ n: string }[]>({ n: '*' });
    // The stop read its clock 6 ms before the settlement's, and took the lock after it.
    await metering.pause('st-race', at(base + 10_494));
    const meter = await cp.knex('container_meters').where({ container_id: 'st-race' }).first();
    expect(meter.running_since).toBeNull();
    expect(Number(meter.billed_ms)).toBe(10_500);
    expect(meter.updated_at.getTime()).toBe(at(base + 10_500).getTime());
    expect(Number(meter.charged_fen)).toBe(chargeFor(10_500, rate));
    // Nothing more charged, nothing taken back: no ledger row for the stop.
    const after = await cp
      .knex('ledger_entries')
      .where({ user_id: userId })
      .count<{ n: string }[]>({ n: '*' });
    expect(Number(after[0]?.n)).toBe(Number(entries[0]?.n));
  });
});
