import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningControlPlane } from '../src/platform.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';

// A remembered session's balance and container list are answered before Koa (framework/fast-path.ts):
// the answer must be Koa's, header for header, and a session the fast path cannot vouch for (not
// remembered, revoked) goes through Koa's authentication.
let cp: RunningControlPlane;
let client: ApiClient;

beforeAll(async () => {
  cp = await startTestControlPlane();
  client = new ApiClient(cp.url);
  await client.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await cp?.close();
});

async function get(path: string, token: string | undefined = client.token) {
  const res = await fetch(cp.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const headers = Object.fromEntries(
    [...res.headers].filter(([name]) => !['date', 'x-request-id'].includes(name)),
  );
  return { status: res.status, headers, body: await res.text(), requestId: res.headers.get('x-request-id') };
}

describe('the fast reads', () => {
  it.each(['/api/billing/balance', '/api/containers'])('%s answers what Koa answers', async (path) => {
    const remembered = vi.spyOn(cp.services.auth, 'rememberedUser');
    // With a query string the request is Koa's; without, the fast path's once the session is remembered.
    const koa = await get(`${path}?`);
    const fast = await get(path);
    expect(remembered).toHaveReturnedWith(expect.objectContaining({ username: ADMIN.username }));
    expect(fast.status).toBe(200);
    expect(fast).toEqual({ ...koa, requestId: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect(fast.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(fast.headers['x-content-type-options']).toBe('nosniff');
    remembered.mockRestore();
  });

  it('keeps a proxy’s request id', async () => {
    await get('/api/billing/balance');
    const res = await fetch(`${cp.url}/api/billing/balance`, {
      headers: { authorization: `Bearer ${client.token}`, 'x-request-id': 'proxy-id-1' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('proxy-id-1');
  });

  it('answers nothing for a token it does not remember, nor for one logged out', async () => {
    expect((await get('/api/billing/balance', 'not-a-session')).status).toBe(401);
    const other = new ApiClient(cp.url);
    await other.login(ADMIN.username, ADMIN.password);
    expect((await get('/api/billing/balance', other.token)).status).toBe(200);
    expect((await get('/api/billing/balance', other.token)).status).toBe(200);
    expect((await other.request('POST', '/api/auth/logout')).status).toBeLessThan(300);
    const after = await get('/api/billing/balance', other.token);
    expect(after.status).toBe(401);
    expect(JSON.parse(after.body)).toMatchObject({ detail: expect.any(String) });
    // The first session is not affected.
    expect((await get('/api/billing/balance')).status).toBe(200);
  });

  it('leaves a failing read to Koa, which answers the error with its request id', async () => {
    await get('/api/containers');
    const failing = vi
      .spyOn(cp.services.containers, 'listForUser')
      .mockRejectedValue(new Error('the database went away'));
    const res = await get('/api/containers');
    expect(failing).toHaveBeenCalledTimes(2); // the fast path's try, then Koa's
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toMatchObject({ request_id: res.requestId });
    failing.mockRestore();
  });
});
