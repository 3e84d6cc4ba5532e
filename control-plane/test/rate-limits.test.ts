// The rate limiter against its real table, on a clock the test moves: a sliding window, so that
// no burst gets through at a fixed window's boundary (and tests of the limits never depend on
// where in a window they run).
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex, migrateLatest } from '../src/db/knex.js';
import { RateLimitsRepository } from '../src/modules/rate-limits/repository.js';
import { RateLimiter, rule } from '../src/modules/rate-limits/service.js';
import { createTestDatabase } from './harness.js';

let knex: Knex;
beforeAll(async () => {
  knex = createKnex(await createTestDatabase(), { min: 0, max: 2 });
  await migrateLatest(knex);
});
afterAll(async () => {
  await knex?.destroy();
});

const WINDOW = 900;
const limit = rule({ limit: 10, windowSeconds: WINDOW }, '请 {minutes} 分钟后再试');
/** A window boundary (a multiple of the window since the epoch) plus `seconds`. */
const at = (seconds: number) =>
  new Date((Math.floor(Date.UTC(2026, 10, 25) / 1000 / WINDOW) * WINDOW + seconds) * 1000);

function limiterAt(clock: { now: Date }) {
  return new RateLimiter(new RateLimitsRepository(knex), () => clock.now);
}

describe('the rate limiter', () => {
  it('refuses the 11th failure even when the 10 before straddle a window boundary', async () => {
    const clock = { now: at(WINDOW - 1) }; // one second before a boundary
    const limiter = limiterAt(clock);
    for (let i = 0; i < 5; i++) await limiter.record(limit, 'straddle');
    clock.now = at(WINDOW + 1); // just after it
    for (let i = 0; i < 5; i++) await limiter.record(limit, 'straddle');
    await expect(limiter.check(limit, 'straddle')).rejects.toMatchObject({ status: 429 });
    expect(await limiter.reached(limit, 'straddle')).toBe(true);
  });

  it('lets events through again as the earlier ones slide out of the window', async () => {
    const clock = { now: at(10) };
    const limiter = limiterAt(clock);
    for (let i = 0; i < 10; i++) await limiter.record(limit, 'slide');
    await expect(limiter.check(limit, 'slide')).rejects.toMatchObject({ status: 429 });
    clock.now = at(WINDOW + 10); // the next window: the previous one still counts almost fully
    expect(await limiter.reached(limit, 'slide')).toBe(true);
    clock.now = at(WINDOW + WINDOW / 2); // half of it has slid out: 5 of the 10 left
    expect(await limiter.reached(limit, 'slide')).toBe(false);
    clock.now = at(3 * WINDOW); // two windows on: nothing left
    await limiter.check(limit, 'slide');
  });

  it('hit counts and refuses over the limit, whatever the window', async () => {
    const clock = { now: at(WINDOW - 2) };
    const limiter = limiterAt(clock);
    for (let i = 0; i < 6; i++) await limiter.hit(limit, 'hits');
    clock.now = at(WINDOW + 2);
    for (let i = 0; i < 4; i++) await limiter.hit(limit, 'hits');
    await expect(limiter.hit(limit, 'hits')).rejects.toMatchObject({ status: 429 });
  });
});
