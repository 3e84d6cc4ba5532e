import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import type { RunningControlPlane } from '../src/platform.js';
import { ApiClient, startTestControlPlane } from './harness.js';

let cp: RunningControlPlane | undefined;

afterEach(async () => {
  await cp?.close();
  cp = undefined;
});

/** A control plane with these settings, and GET /api/site asked without signing in. */
async function site(overrides: Partial<Config> = {}) {
  cp = await startTestControlPlane(overrides);
  return new ApiClient(cp.url).request<{ new_user_credit: number }>('GET', '/api/site');
}

describe('GET /api/site', () => {
  it('tells anyone, signed in or not, the trial credit a new user gets: 20 yuan by default', async () => {
    const answer = await site();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ new_user_credit: 20 });
  });

  it('says the configured amount (NEW_USER_CREDIT_YUAN) in yuan, and 0 when there is none', async () => {
    expect((await site({ newUserCreditFen: 1250 })).body).toEqual({ new_user_credit: 12.5 });
    await cp?.close();
    expect((await site({ newUserCreditFen: 0 })).body).toEqual({ new_user_credit: 0 });
  });

  it('says the amount registration books: a new user starts with that balance', async () => {
    const answer = await site({ newUserCreditFen: 1250 });
    const user = new ApiClient((cp as RunningControlPlane).url);
    await user.register('siteuser');
    const balance = await user.request<{ balance: number }>('GET', '/api/billing/balance');
    expect(balance.body.balance).toBe(answer.body.new_user_credit);
  });
});
