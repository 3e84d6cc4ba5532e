import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentCallError } from '../agents/agent-client.js';
import { agentError } from '../agents/agent-errors.js';
import { AppError, errorMiddleware, notFound, unavailable } from './errors.js';

interface Logged {
  message: string;
  err: unknown;
}

let server: ReturnType<Koa['listen']> | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** A Koa app with the middleware, whose only route throws what `fail` gives. */
async function serve(fail: () => unknown): Promise<{ url: string; logged: Logged[] }> {
  const logged: Logged[] = [];
  const app = new Koa();
  app.use(errorMiddleware((message, err) => logged.push({ message, err })));
  app.use(async () => {
    throw fail();
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server?.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/thing`, logged };
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, id: res.headers.get('x-request-id'), body: (await res.json()) as never };
}

describe('errors keep their cause', () => {
  it('an unexpected error is a 500 naming its request id, logged once with the cause', async () => {
    const cause = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    const { url, logged } = await serve(() => cause);
    const res = await get(url);
    expect(res.status).toBe(500);
    expect(res.id).toMatch(/^[0-9a-f]{8}$/);
    expect(res.body).toEqual({
      detail: `服务器内部错误（请求编号 ${res.id}）`,
      code: 'INTERNAL',
      request_id: res.id,
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]?.message).toContain(`request ${res.id}`);
    expect(logged[0]?.message).toContain('GET /api/thing');
    expect(logged[0]?.err).toBe(cause);
  });

  it('keeps the id a proxy in front gave, and makes a new one for a malformed one', async () => {
    const { url } = await serve(() => new Error('boom'));
    expect((await get(url, { 'X-Request-Id': 'edge-42.a:b' })).id).toBe('edge-42.a:b');
    const replaced = await get(url, { 'X-Request-Id': 'not ok; rm -rf' });
    expect(replaced.id).toMatch(/^[0-9a-f]{8}$/);
  });

  it('a refusal or a known state is answered as it is and not logged', async () => {
    for (const [error, status] of [
      [notFound('容器不存在'), 404],
      [unavailable('暂无可用的存储节点，请稍后再试', 'NO_STORAGE_NODE'), 503],
    ] as const) {
      const { url, logged } = await serve(() => error);
      const res = await get(url);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ detail: error.detail, code: error.code });
      expect(res.id).toBeTruthy();
      expect(logged).toEqual([]);
    }
  });

  it('a validation failure is a 400 with the schema’s words', async () => {
    const schema = z.object({ n: z.number({ invalid_type_error: '请输入数字' }) });
    const { url, logged } = await serve(() => schema.safeParse({ n: 'x' }).error);
    const res = await get(url);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: '请输入数字', code: 'VALIDATION_FAILED' });
    expect(logged).toEqual([]);
  });

  it('agentError: a node’s failure keeps the node’s words and is logged with the gRPC error', async () => {
    const grpcError = new AgentCallError(13, 'docker: no space left on device', 'createContainer');
    const mapped = agentError(grpcError, '创建容器失败');
    expect(mapped.cause).toBe(grpcError);
    const { url, logged } = await serve(() => mapped);
    const res = await get(url);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      detail: 'docker: no space left on device',
      code: 'NODE_ERROR',
      request_id: res.id,
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]?.err).toBe(grpcError);
  });

  it('agentError: anything that is not the node’s answer is a logged 500, never a silent one', async () => {
    const dbDown = new Error('Connection terminated unexpectedly');
    const mapped = agentError(dbDown, '启动容器失败');
    expect(mapped).toBeInstanceOf(AppError);
    expect(mapped.status).toBe(500);
    expect(mapped.cause).toBe(dbDown);
    const { url, logged } = await serve(() => mapped);
    const res = await get(url);
    expect(res.status).toBe(500);
    expect(logged[0]?.err).toBe(dbDown);
  });
});
