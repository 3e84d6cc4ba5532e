import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeContainer, fakeNode } from '../../../test/fake-containers.js';
import { ApiClient, startTestControlPlane } from '../../../test/harness.js';
import { AppError } from '../../framework/errors.js';
import type { RunningControlPlane } from '../../platform.js';
import { chargeFor } from './metering.js';

let cp: RunningControlPlane;

beforeAll(async () => {
  cp = await startTestControlPlane({ billingJobs: false });
});
afterAll(async () => {
  await cp?.close();
});

/** A deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the ledger', () => {
  it('rounds metered time from the total, never from the pieces', () => {
    expect(chargeFor(3_600_000, 199)).toBe(199);
    expect(chargeFor(1_800_000, 199)).toBe(100); // 99.5 rounds half up
    // 3600 settlements of one second each at 1.99/h: the sum of rounded pieces would be 0.
    expect(chargeFor(3600 * 1000, 199)).toBe(199);
    expect(chargeFor(10 ** 12, 10 ** 8)).toBe(27_777_777_777_778);
  });

  it('keeps every balance equal to its ledger through thousands of concurrent mixed operations', async () => {
    const seed = Number(process.env.LEDGER_SEED ?? Date.now() % 100000);
    const rnd = random(seed);
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)] as T;
    const b = cp.services.billing;
    const admin = { id: 1, username: 'admin', nickname: null, isAdmin: true };
    const names = Array.from({ length: 12 }, (_, i) => `led_${i}`);
    for (const n of names) await new ApiClient(cp.url).register(n);
    const users = (await cp.knex('users').whereIn('username', names).select('id')).map(
      (u: { id: number }) => u.id,
    );
    const node = await fakeNode(cp);
    const containers: { id: string; userId: number }[] = [];
    for (const userId of users) {
      for (let i = 0; i < 2; i++) {
        containers.push({
          userId,
          id: await fakeContainer(cp, { userId, nodeId: node, priceFen: 1 + Math.floor(rnd() * 5000) }),
        });
      }
    }
    await cp.knex('coupons').insert(
      users.flatMap((user_id) =>
        Array.from({ length: 5 }, () => ({
          user_id,
          name: '随机券',
          amount_fen: 100 + Math.floor(rnd() * 1000),
          min_amount_fen: Math.floor(rnd() * 5000),
          expires_at: new Date(Date.now() + 86_400_000),
          selected_at: new Date(),
        })),
      ),
    );
    const clock = {
      t: Date.now(),
      /** Moves the test's clock forward by up to `ms` and answers the new time. */
      advance(ms: number) {
        this.t += Math.floor(rnd() * ms);
        return new Date(this.t);
      },
    };
    const refused: string[] = [];
    const ops: (() => Promise<unknown>)[] = [
      // Never 0: a zero adjustment is refused (ADJUST_ZERO) by design, not by the race under test.
      () => b.account.adjust(admin, pick(users), Math.round((rnd() - 0.4) * 5000) || 1, '随机调整'),
      async () => {
        const payer = pick(users);
        const p = await b.payments.create({
          userId: payer,
          amountFen: 100 + Math.floor(rnd() * 9000),
          description: '充值',
        });
        await Promise.all([
          b.payments.sandboxPay(payer, p.out_trade_no),
          b.payments.sandboxPay(payer, p.out_trade_no),
        ]);
      },
      () =>
        b.ledger.transaction((trx) =>
          b.ledger.post(trx, {
            userId: pick(users),
            amountFen: -Math.floor(rnd() * 3000),
            kind: 'expense',
            description: '随机消费',
            paymentMethod: 'balance',
            floorFen: 0,
          }),
        ),
      () => b.metering.resume(pick(containers).id, new Date(clock.t - Math.floor(rnd() * 3_600_000))),
      () => b.metering.pause(pick(containers).id, clock.advance(60_000)),
      () => b.metering.settleAll(clock.advance(120_000)),
      async () => {
        const c = pick(containers);
        const total = 100 + Math.floor(rnd() * 8000);
        const order = await b.ledger.transaction((trx) =>
          b.orders.chargePurchase(trx, {
            userId: c.userId,
            containerId: c.id,
            containerName: c.id,
            billingType: pick(['daily', 'weekly', 'hourly'] as const),
            duration: 1,
            unitPriceFen: 1 + Math.floor(rnd() * 100),
            gpuCount: 1,
            totalFen: total,
            productName: '随机产品',
            serverName: 'fake',
            gpuType: 'RTX 4090',
            region: '测试区',
          }),
        );
        if (rnd() < 0.5)
          await Promise.all([b.orders.refundPurchase(order.orderId), b.orders.refundPurchase(order.orderId)]);
      },
    ];
    const OPERATIONS = 2000;
    let next = 0;
    const worker = async () => {
      while (next < OPERATIONS) {
        next++;
        try {
          await pick(ops)();
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          refused.push(err.code);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await b.metering.settleAll(new Date(clock.t + 60_000));

    // Only the refusals the rules allow; any other code is named in the failure.
    expect(
      refused.filter((c) => c !== 'INSUFFICIENT_BALANCE' && c !== 'ADJUST_NEGATIVE'),
      `seed ${seed}`,
    ).toEqual([]);
    for (const id of users) {
      const user = (await cp.knex('billing_accounts').where({ user_id: id }).first('balance_fen')) ?? {
        balance_fen: 0,
      };
      const rows = await cp
        .knex('ledger_entries')
        .where({ user_id: id })
        .orderBy('id')
        .select('amount_fen', 'balance_after_fen');
      const sum = rows.reduce((s: number, r: { amount_fen: number }) => s + r.amount_fen, 0);
      expect(user.balance_fen, `seed ${seed}, user ${id}`).toBe(sum);
      let running = 0;
      for (const r of rows) {
        running += r.amount_fen;
        expect(r.balance_after_fen, `seed ${seed}: the chain of balances`).toBe(running);
      }
      const recharges = await cp
        .knex('ledger_entries')
        .where({ user_id: id, kind: 'recharge' })
        .count<{ count: string }[]>({ count: '*' });
      const paid = await cp
        .knex('payments')
        .where({ user_id: id, status: 'success' })
        .count<{ count: string }[]>({ count: '*' });
      expect(recharges[0]?.count, 'each payment credited once').toBe(paid[0]?.count);
    }
    for (const c of containers) {
      const meters = await cp.knex('container_meters').where({ container_id: c.id });
      for (const m of meters) {
        expect(Number(m.charged_fen), 'charged from the total billed time').toBe(
          chargeFor(Number(m.billed_ms), Number(m.rate_fen_per_hour)),
        );
      }
    }
  }, 240_000);
});
