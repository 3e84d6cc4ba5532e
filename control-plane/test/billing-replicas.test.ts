import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeFor } from '../src/modules/billing/metering.js';
import { type RunningControlPlane, startControlPlane } from '../src/platform.js';
import { fakeContainer, fakeNode } from './fake-containers.js';
import { ApiClient, createTestDatabase, testConfig } from './harness.js';
import { adjustBalance } from './money.js';

let url: string;
const secretKey = randomBytes(32);
const start = () => startControlPlane(testConfig(url, { secretKey, meteringIntervalMs: 1000 }), () => {});
let a: RunningControlPlane;
let b: RunningControlPlane;

beforeAll(async () => {
  url = await createTestDatabase();
  a = await start();
  b = await start();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('metering on the job queue with two control planes on one database', () => {
  it('settles every slot once, charges from the total time, and loses nothing across a restart', async () => {
    await new ApiClient(a.url).register('metered');
    await adjustBalance(a, 'metered', 100_000);
    const user = await a.knex('users').where({ username: 'metered' }).first('id');
    // 3600 yuan an hour: one fen per second of running time.
    const id = await fakeContainer(a, { userId: user.id, nodeId: await fakeNode(a), priceFen: 360_000 });
    const opened = Date.now();
    await a.services.billing.metering.resume(id, new Date(opened));

    // Settlements every second, taken by whichever replica polls first: wait (on a busy machine
    // too) until several ran and both replicas took some.
    const replicasOf = (rows: { replica: string }[]) => new Set(rows.map((r) => r.replica)).size;
    let runs: { slot: number; replica: string }[] = [];
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(500)) {
      runs = await a.knex('settlement_runs').orderBy('slot');
      if (runs.length >= 4 && replicasOf(runs) === 2) break;
      // One replica's worker can win every poll for a while (their polls fall in step): once it
      // took a few slots alone, it stops working, and the other must take the next slots.
      if (runs.length >= 4 && replicasOf(runs) === 1) {
        const busy = [a, b].find((cp) => cp.jobs.settlement?.replica === runs[0]?.replica);
        await busy?.jobs.stop();
      }
    }
    expect(runs.length).toBeGreaterThanOrEqual(4);
    // pg-boss keeps one settlement job per time slot, whichever replica asked for it …
    const jobs = await a.knex.raw(
      "select singleton_on, count(*)::int as n from pgboss.job where name = 'billing-settle' group by singleton_on",
    );
    expect(jobs.rows.every((r: { n: number }) => r.n === 1)).toBe(true);
    // … and both replicas take part in the work.
    expect(replicasOf(runs)).toBe(2);

    // One statement, one snapshot: a settlement running meanwhile changes both or neither.
    const { rows: meters } = await a.knex.raw(
      `select m.billed_ms, m.charged_fen,
              (select -coalesce(sum(amount_fen), 0) from ledger_entries where container_id = m.container_id) as ledger_fen,
              (select count(*) from ledger_entries where container_id = m.container_id) as charges,
              (select count(*) from settlement_runs) as runs
         from container_meters m where m.container_id = ?`,
      [id],
    );
    const meter = meters[0];
    expect(Number(meter.charged_fen)).toBe(chargeFor(Number(meter.billed_ms), 360_000));
    expect(Number(meter.ledger_fen)).toBe(Number(meter.charged_fen));
    // At most one charge per settlement: no slot charged twice.
    expect(Number(meter.charges)).toBeLessThanOrEqual(Number(meter.runs));

    // Both replicas stop; a new one starts on the same database later.
    await a.close();
    await b.close();
    await sleep(2000);
    a = await start();
    b = await start();
    await sleep(3000);
    const stoppedAt = Date.now();
    await a.services.billing.metering.pause(id, new Date(stoppedAt));
    const after = await a.knex('container_meters').where({ container_id: id }).first();
    expect(after.running_since).toBeNull();
    // The meter closes at the stop, or where a settlement that took its lock first (its clock read
    // a few milliseconds later) billed to already: never before the stop, never much after it.
    const closedAt = after.updated_at.getTime();
    expect(closedAt).toBeGreaterThanOrEqual(stoppedAt);
    expect(closedAt - stoppedAt).toBeLessThan(1000);
    // Every running millisecond is billed once: the downtime of the control plane too.
    expect(Number(after.billed_ms)).toBe(closedAt - opened);
    expect(Number(after.charged_fen)).toBe(chargeFor(closedAt - opened, 360_000));
    const balance = await a.knex('billing_accounts').where({ user_id: user.id }).first('balance_fen');
    const sum = await a
      .knex('ledger_entries')
      .where({ user_id: user.id })
      .sum<{ sum: string }[]>({ sum: 'amount_fen' });
    expect(Number(balance.balance_fen)).toBe(Number(sum[0]?.sum));
    expect(Number(balance.balance_fen)).toBe(2000 + 10_000_000 - chargeFor(closedAt - opened, 360_000));
  }, 60_000);
});
