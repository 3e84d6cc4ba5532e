import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeFeed, KeyedChangeCache, REPLY_CHANNELS } from '../src/db/change-cache.js';
import type { AuthUser } from '../src/framework/auth.js';
import { SecretBox } from '../src/framework/secret-box.js';
import { type RunningControlPlane, startControlPlane } from '../src/platform.js';
import { createTestDatabase, testConfig } from './harness.js';

// A user's balance and container list are kept in each replica between changes. Two replicas on
// one database: a change committed through either (or by anything writing the database: a
// settlement, an agent's report, plain SQL) is on the other's very next reply, and what changes
// nothing a reply shows (another user's container, a low-balance notice marked sent, a heartbeat)
// keeps the kept reply.
let url: string;
let a: RunningControlPlane;
let b: RunningControlPlane;
let nodeId: number;
let owner: AuthUser;
let other: AuthUser;
let admin: AuthUser;
const secretKey = randomBytes(32);
const secrets = new SecretBox(secretKey);

async function newUser(cp: RunningControlPlane, username: string): Promise<AuthUser> {
  const [row] = await cp.knex('users').insert({ username, password_hash: 'x' }).returning('id');
  return { id: Number((row as { id: number }).id), username, nickname: null, isAdmin: false };
}

beforeAll(async () => {
  url = await createTestDatabase();
  const overrides = { secretKey };
  a = await startControlPlane(testConfig(url, overrides), () => {});
  b = await startControlPlane(testConfig(url, overrides), () => {});
  const [node] = await a
    .knex('nodes')
    .insert({
      name: 'reply-node',
      address: '10.0.0.9:50051',
      token: 't',
      region: '缓存区',
      status: 'offline',
      docker_available: true,
      gpu_total: 2,
      gpu_model: 'RTX4090',
    })
    .returning('id');
  nodeId = Number((node as { id: number }).id);
  await a.knex('node_gpus').insert(
    [0, 1].map((gpu_index) => ({
      node_id: nodeId,
      gpu_index,
      uuid: `GPU-REPLY-${gpu_index}`,
      model: 'RTX4090',
    })),
  );
  owner = await newUser(a, 'reply_owner');
  other = await newUser(a, 'reply_other');
  admin = { ...(await newUser(a, 'reply_admin')), isAdmin: true };
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const containerRow = (id: string, user: AuthUser, extra: Record<string, unknown> = {}) => ({
  id,
  user_id: user.id,
  node_id: nodeId,
  name: id,
  image: 'reply/test:1',
  status: 'running',
  billing_type: 'hourly',
  price_fen: 360_000,
  gpu_count: 1,
  gpu_type: 'RTX4090',
  password_encrypted: secrets.seal('pw'),
  ports: JSON.stringify([{ name: 'ssh', container_port: 22, host_port: 30_022, custom: false }]),
  started_at: new Date(),
  ...extra,
});

const list = (cp: RunningControlPlane, user = owner) => cp.services.containers.listForUser(user);
const balance = (cp: RunningControlPlane, user = owner) => cp.services.billing.account.balance(user.id);

/** Asks `read` on `cp` until its reply is kept (the second asks nothing of the database). */
async function warm<T>(
  cp: RunningControlPlane,
  cache: 'list' | 'balance',
  read: (cp: RunningControlPlane) => Promise<T>,
): Promise<T> {
  const counter = () =>
    cache === 'list'
      ? cp.services.containers.listCacheLoads()
      : cp.services.billing.account.balanceCacheLoads();
  await read(cp);
  const loads = counter();
  const value = await read(cp);
  expect(counter()).toBe(loads);
  return value;
}

describe('the balance reply cache', () => {
  it('is kept on both replicas, and an adjustment through one is on the other’s next reply', async () => {
    expect(a.services.replyChanges.listening).toBe(true);
    expect(b.services.replyChanges.listening).toBe(true);
    expect((await warm(a, 'balance', balance)).balance).toBe(0);
    expect((await warm(b, 'balance', balance)).balance).toBe(0);
    await a.services.billing.account.adjust(admin, owner.id, 50_000, '测试');
    expect((await balance(b)).balance).toBe(500);
    expect((await balance(a)).balance).toBe(500);
  });

  it('the alert threshold, a settlement and plain SQL: on the other replica’s next reply', async () => {
    await warm(a, 'balance', balance);
    await b.services.billing.account.setAlertThreshold(owner.id, 12_300);
    expect((await balance(a)).alert_threshold).toBe(123);

    // A settlement's balances (one statement for its batch of users).
    await warm(b, 'balance', balance);
    await a.services.billing.ledger.transaction(async (trx) => {
      await a.services.billing.ledger.lockBalances(trx, [owner.id]);
      await a.services.billing.ledger.setSettledBalances(trx, [{ userId: owner.id, balanceFen: 40_000 }]);
    });
    expect((await balance(b)).balance).toBe(400);

    await warm(a, 'balance', balance);
    await b.knex('billing_accounts').where({ user_id: owner.id }).update({ balance_fen: 30_000 });
    expect((await balance(a)).balance).toBe(300);
  });

  it('another user’s posting, or a low-balance notice marked sent, keeps the kept reply', async () => {
    await warm(b, 'balance', balance);
    const loads = b.services.billing.account.balanceCacheLoads();
    await a.services.billing.account.adjust(admin, other.id, 100, '测试');
    await a
      .knex('billing_accounts')
      .where({ user_id: owner.id })
      .update({ balance_alert_sent_at: new Date() });
    expect((await balance(b)).balance).toBe(300);
    expect(b.services.billing.account.balanceCacheLoads()).toBe(loads);
    expect((await balance(b, other)).balance).toBe(1);
  });
});

describe('the container list reply cache', () => {
  it('is kept on both replicas; a container added through either is on the other’s next list', async () => {
    expect((await warm(a, 'list', list)).total).toBe(0);
    expect((await warm(b, 'list', list)).total).toBe(0);
    await a.knex('containers').insert(containerRow('reply-c1', owner));
    const onB = await list(b);
    expect(onB.items.map((c) => c.container_id)).toEqual(['reply-c1']);
    expect(onB.items[0]?.ssh_server).toBe('10.0.0.9');
    expect(onB.items[0]?.password).toBe('pw');
    expect((await list(a)).items).toHaveLength(1);
  });

  it('status, cost, GPUs, node and GPU facts, the owner’s name: on the other replica’s next list', async () => {
    const changes: [
      string,
      () => Promise<unknown>,
      (reply: Awaited<ReturnType<typeof list>>) => unknown,
      unknown,
    ][] = [
      [
        'status',
        () =>
          a
            .knex('containers')
            .where({ id: 'reply-c1' })
            .update({ status: 'stopped', stopped_at: new Date() }),
        (r) => r.items[0]?.status,
        'stopped',
      ],
      [
        'cost',
        () => b.knex('containers').where({ id: 'reply-c1' }).update({ total_cost_fen: 1234 }),
        (r) => r.items[0]?.total_cost,
        12.34,
      ],
      [
        'a GPU allocated',
        () =>
          a
            .knex('gpu_allocations')
            .insert({ node_id: nodeId, gpu_uuid: 'GPU-REPLY-1', container_id: 'reply-c1' }),
        (r) => r.items[0]?.gpu_indices,
        [1],
      ],
      [
        'a GPU failing',
        () => b.knex('node_gpus').where({ uuid: 'GPU-REPLY-1' }).update({ health_problem: 'Xid 79' }),
        (r) => r.items[0]?.gpus[0]?.state,
        'unhealthy',
      ],
      [
        'the node online',
        () => a.knex('nodes').where({ id: nodeId }).update({ status: 'online' }),
        (r) => r.items[0]?.node_status,
        'online',
      ],
      [
        'the node’s reported public host',
        () =>
          b
            .knex('nodes')
            .where({ id: nodeId })
            .update({ host_info: JSON.stringify({ publicHost: 'gpu.example.cn' }) }),
        (r) => r.items[0]?.ssh_server,
        'gpu.example.cn',
      ],
      [
        'the node’s public host',
        () => a.knex('nodes').where({ id: nodeId }).update({ public_host: 'ssh.example.cn' }),
        (r) => r.items[0]?.ssh_server,
        'ssh.example.cn',
      ],
      [
        'the node’s region',
        () => b.knex('nodes').where({ id: nodeId }).update({ region: '华东' }),
        (r) => r.items[0]?.region,
        '华东',
      ],
      [
        'the GPU given back',
        () => a.knex('gpu_allocations').where({ container_id: 'reply-c1' }).delete(),
        (r) => r.items[0]?.gpu_indices,
        [],
      ],
      [
        'the owner renamed',
        async () => {
          await b.knex('users').where({ id: owner.id }).update({ username: 'reply_owner2' });
          owner = { ...owner, username: 'reply_owner2' };
        },
        (r) => r.items[0]?.username,
        'reply_owner2',
      ],
      [
        'deleted',
        () =>
          a
            .knex('containers')
            .where({ id: 'reply-c1' })
            .update({ status: 'deleted', deleted_at: new Date() }),
        (r) => r.total,
        0,
      ],
    ];
    for (const [what, change, shown, expected] of changes) {
      await warm(a, 'list', list);
      await warm(b, 'list', list);
      await change();
      expect(shown(await list(b)), what).toEqual(expected);
      expect(shown(await list(a)), what).toEqual(expected);
    }
  });

  it('a settlement’s cost is on the next list of either replica', async () => {
    await a
      .knex('containers')
      .insert(containerRow('reply-c2', owner, { started_at: new Date(Date.now() - 60_000) }));
    await a.services.billing.metering.resume('reply-c2', new Date(Date.now() - 60_000));
    const before = await warm(b, 'list', list);
    expect(before.items[0]?.total_cost).toBe(0);
    await a.services.billing.metering.settleAll();
    expect((await list(b)).items[0]?.total_cost).toBeGreaterThan(0);
  });

  it('another user’s container, a heartbeat, a node fact not shown: the kept list stays', async () => {
    await warm(b, 'list', list);
    const loads = b.services.containers.listCacheLoads();
    await a.knex('containers').insert(containerRow('reply-other', other));
    await a.services.nodes.heartbeat(nodeId, true);
    await a.services.nodes.flushHeartbeats();
    await a.knex('nodes').where({ id: nodeId }).update({ gpu_model: 'RTX4090D' });
    await list(b);
    expect(b.services.containers.listCacheLoads()).toBe(loads);
    expect((await list(b, other)).items.map((c) => c.container_id)).toEqual(['reply-other']);
  });
});

/** A feed of its own (not started) and a cache of numbers on the balance channel. */
function balanceCache() {
  const feed = new ChangeFeed({
    databaseUrl: url,
    channels: [REPLY_CHANNELS.balance],
    name: 'a test listener',
    log: () => {},
  });
  return { feed, cache: new KeyedChangeCache<number>(feed, REPLY_CHANNELS.balance) };
}

describe('a keyed change cache', () => {
  it('drops a reply on the very next read after a change committed on another connection, every time', async () => {
    const { feed, cache } = balanceCache();
    await feed.start();
    let loads = 0;
    const load = async () => ++loads;
    try {
      let kept = await cache.get(42, load);
      for (let i = 0; i < 300; i++) {
        // The barrier is a round trip on the listening connection (no NOTIFY of its own): the
        // change, committed and acknowledged on a pooled connection, must have dropped the reply.
        await a.knex.transaction((trx) => trx.raw(`select pg_notify('balance_changed', '42')`));
        const next = await cache.get(42, load);
        expect(next).toBe(kept + 1);
        expect(await cache.get(42, load)).toBe(next);
        kept = next;
      }
    } finally {
      await feed.close();
    }
  });

  it('keeps nothing while it does not listen, and drops the keys an announcement names', async () => {
    const { feed, cache } = balanceCache();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get(1, load)).toBe(1);
    expect(await cache.get(1, load)).toBe(2);
    await feed.start();
    expect(await cache.get(1, load)).toBe(3);
    expect(await cache.get(1, load)).toBe(3);
    expect(await cache.get(2, load)).toBe(4);
    await a.knex.raw(`select pg_notify('balance_changed', '7,1')`);
    expect(await cache.get(1, load)).toBe(5);
    expect(await cache.get(2, load)).toBe(4);
    await a.knex.raw(`select pg_notify('balance_changed', '*')`);
    expect(await cache.get(2, load)).toBe(6);
    // Requests arriving together share one barrier.
    const sent = feed.barriers;
    expect(
      await Promise.all([cache.get(1, load), cache.get(2, load), cache.get(1, load), cache.get(2, load)]),
    ).toEqual([7, 6, 7, 6]);
    expect(feed.barriers - sent).toBe(1);
    await feed.close();
    expect(cache.listening).toBe(false);
    expect(await cache.get(2, load)).toBe(8);
    expect(await cache.get(2, load)).toBe(9);
  });
});
