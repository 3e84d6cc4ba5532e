import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ApiClient, createTestDatabase, outboxCode, testConfig } from '../../../test/harness.js';
import { type RunningControlPlane, startControlPlane } from '../../platform.js';

// Two replicas on one database, as behind a load balancer: each caches sessions for a while; a
// revocation on one must stop the token on the other at once.
let a: RunningControlPlane;
let b: RunningControlPlane;

beforeAll(async () => {
  const url = await createTestDatabase();
  const overrides = { secretKey: randomBytes(32) };
  a = await startControlPlane(testConfig(url, overrides), () => {});
  b = await startControlPlane(testConfig(url, overrides), () => {});
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const on = (cp: RunningControlPlane, token: string | undefined) => {
  const api = new ApiClient(cp.url);
  api.token = token;
  return api;
};
const infoStatus = async (cp: RunningControlPlane, token: string | undefined) =>
  (await on(cp, token).request('GET', '/api/user/info')).status;

/** Revokes the user's sessions in the database behind the replicas' backs (no announcement). */
async function revokeSilently(cp: RunningControlPlane, username: string): Promise<void> {
  const user = await cp.knex('users').where({ username }).first();
  await cp.knex('sessions').where({ user_id: user.id }).update({ revoked_at: new Date() });
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('sessions cached by each replica', () => {
  it('are cached: a revocation nobody announced is not seen until the cache lets go', async () => {
    const api = new ApiClient(a.url);
    await api.register('cached');
    expect(await infoStatus(b, api.token)).toBe(200);
    await revokeSilently(a, 'cached');
    // B trusts what it read (this is what the announcements below must undo).
    expect(await infoStatus(b, api.token)).toBe(200);
    // A never read this token: it goes to the database.
    expect(await infoStatus(a, api.token)).toBe(401);
    // Both replicas listen, and a revocation counts them (it waits for both acknowledgements).
    const listening = await a.knex.raw(
      "select count(*)::int as n from pg_stat_activity where application_name = 'gpucloud-session-listener' and datname = current_database()",
    );
    expect(listening.rows[0].n).toBe(2);
  });

  it('a sign-out on one replica ends the session on the other at once', async () => {
    const api = new ApiClient(a.url);
    await api.register('leaver');
    const second = new ApiClient(b.url);
    await second.login('leaver', 'secret123');
    for (const cp of [a, b]) {
      expect(await infoStatus(cp, api.token)).toBe(200);
      expect(await infoStatus(cp, second.token)).toBe(200);
    }
    expect((await api.request('POST', '/api/auth/logout')).status).toBe(200);
    expect(await infoStatus(b, api.token)).toBe(401);
    expect(await infoStatus(a, api.token)).toBe(401);
    // The user's other session goes on.
    expect(await infoStatus(b, second.token)).toBe(200);
    expect(await infoStatus(a, second.token)).toBe(200);
  });

  it('a password reset on one replica ends the sessions on the other at once', async () => {
    const api = new ApiClient(a.url);
    await api.register('forgetful');
    expect(await infoStatus(b, api.token)).toBe(200);
    const anon = new ApiClient(a.url);
    await anon.request('POST', '/api/auth/send-reset-code', { username: 'forgetful', method: 'email' });
    const code = await outboxCode(a.url, 'forgetful@example.com');
    const reset = await anon.request('POST', '/api/auth/reset-password', {
      username: 'forgetful',
      code,
      password: 'brand-new-pw',
    });
    expect(reset.status).toBe(200);
    expect(await infoStatus(b, api.token)).toBe(401);
    expect(await infoStatus(a, api.token)).toBe(401);
  });

  it('an account disabled on one replica is refused on the other at once; enabled, it signs in again', async () => {
    const api = new ApiClient(a.url);
    await api.register('rogue');
    expect(await infoStatus(b, api.token)).toBe(200);
    const admin = new ApiClient(a.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const rogue = await a.knex('users').where({ username: 'rogue' }).first();
    expect((await admin.request('POST', `/api/admin/users/${rogue.id}/disable`)).status).toBe(200);
    expect(await infoStatus(b, api.token)).toBe(401);
    expect(await infoStatus(a, api.token)).toBe(401);
    expect((await admin.request('POST', `/api/admin/users/${rogue.id}/enable`)).status).toBe(200);
    await on(b, undefined).login('rogue', 'secret123');
  });

  it('admin rights revoked on one replica are gone on the other at once', async () => {
    const admin = new ApiClient(a.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const api = new ApiClient(a.url);
    await api.register('deputy');
    const deputy = await a.knex('users').where({ username: 'deputy' }).first();
    expect((await admin.request('POST', `/api/admin/users/${deputy.id}/grant-admin`)).status).toBe(200);
    expect((await on(b, api.token).request('GET', '/api/admin/nodes')).status).toBe(200);
    expect((await admin.request('POST', `/api/admin/users/${deputy.id}/revoke-admin`)).status).toBe(200);
    expect((await on(b, api.token).request('GET', '/api/admin/nodes')).status).toBe(403);
  });

  it('while a replica cannot hear revocations it caches nothing, and caches again once it can', async () => {
    const api = new ApiClient(a.url);
    await api.register('unheard');
    const listeners = () =>
      a.knex.raw(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'gpucloud-session-listener' and datname = current_database()",
      );
    await listeners();
    await until(async () => !b.services.accounts.revocations.listening);
    expect(await infoStatus(b, api.token)).toBe(200);
    await revokeSilently(a, 'unheard');
    expect(await infoStatus(b, api.token)).toBe(401);

    await until(
      async () => b.services.accounts.revocations.listening && a.services.accounts.revocations.listening,
    );
    const again = new ApiClient(a.url);
    await again.login('unheard', 'secret123');
    expect(await infoStatus(b, again.token)).toBe(200);
    await revokeSilently(a, 'unheard');
    expect(await infoStatus(b, again.token)).toBe(200);
  });
});
