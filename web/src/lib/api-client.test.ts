import { describe, expect, it, vi } from 'vitest';
import {
  type ApiClientDeps,
  ApiError,
  buildUrl,
  createApiClient,
  errorFromResponse,
  handleUnauthorized,
  isSuccess,
  MESSAGE_FAILED,
  MESSAGE_TIMEOUT,
  MESSAGE_UNAVAILABLE,
  MESSAGE_WECHAT_UNAVAILABLE,
  REQUEST_TIMEOUT_MS,
  setLoginNavigator,
  withDetail,
} from './api-client';
import { getSession, setSession } from './auth';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function clientWith(fetchImpl: ApiClientDeps['fetch'], overrides: Partial<ApiClientDeps> = {}) {
  const deps: ApiClientDeps = {
    fetch: fetchImpl,
    getToken: () => 'tok-123',
    getApiKey: () => null,
    onUnauthorized: vi.fn(),
    timeoutMs: 30_000,
    ...overrides,
  };
  return { client: createApiClient(deps), deps };
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('api client', () => {
  it('sends the bearer token and JSON body, and returns the parsed answer', async () => {
    const fetchImpl = vi.fn<ApiClientDeps['fetch']>(async () => jsonResponse(200, { ok: true }));
    const { client } = clientWith(fetchImpl);
    await expect(client.post('/api/things', { a: 1 })).resolves.toEqual({ ok: true });
    const [url, init] = fetchImpl.mock.calls[0] ?? [];
    expect(url).toBe('/api/things');
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok-123');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init?.body).toBe('{"a":1}');
    expect(init?.method).toBe('POST');
  });

  it('adds the API key header when one is stored, and extra headers such as Idempotency-Key', async () => {
    const fetchImpl = vi.fn<ApiClientDeps['fetch']>(async () => jsonResponse(201, {}));
    const { client } = clientWith(fetchImpl, { getApiKey: () => 'key-9' });
    await client.post('/api/x', {}, { headers: { 'Idempotency-Key': 'abc' } });
    const headers = fetchImpl.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers['X-API-Key']).toBe('key-9');
    expect(headers['Idempotency-Key']).toBe('abc');
  });

  it('sends no token on anonymous (sign-in) calls', async () => {
    const fetchImpl = vi.fn<ApiClientDeps['fetch']>(async () => jsonResponse(200, {}));
    const { client } = clientWith(fetchImpl);
    await client.post('/api/auth/login', {}, { anonymous: true });
    const headers = fetchImpl.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
  });

  it('answers undefined for an empty 2xx body', async () => {
    const { client } = clientWith(async () => new Response(null, { status: 204 }));
    await expect(client.delete('/api/x')).resolves.toBeUndefined();
  });

  it('when the server names a detail, the error carries it with status and code', async () => {
    const { client } = clientWith(async () =>
      jsonResponse(409, { detail: 'GPU 资源不足', code: 'GPU_EXHAUSTED' }),
    );
    const error = await caught(client.get('/api/x'));
    expect(error.status).toBe(409);
    expect(error.code).toBe('GPU_EXHAUSTED');
    expect(error.detail).toBe('GPU 资源不足');
    expect(error.message).toBe('GPU 资源不足');
  });

  it('falls back to message, then to 请求失败', async () => {
    const withMessage = clientWith(async () => jsonResponse(400, { message: '参数错误' })).client;
    expect((await caught(withMessage.get('/api/x'))).detail).toBe('参数错误');
    const bare = clientWith(async () => new Response('<html>oops</html>', { status: 500 })).client;
    expect((await caught(bare.get('/api/x'))).detail).toBe(MESSAGE_FAILED);
  });

  it('a 503 shows the fixed unavailable text, and the WeChat text for WeChat URLs', async () => {
    const { client } = clientWith(async () => jsonResponse(503, { detail: '节点的 Docker 服务不可用' }));
    const generic = await caught(client.get('/api/cloud-products'));
    expect(generic.detail).toBe(MESSAGE_UNAVAILABLE);
    expect(generic.serverDetail).toBe('节点的 Docker 服务不可用');
    expect((await caught(client.post('/api/billing/wechat/create'))).detail).toBe(MESSAGE_WECHAT_UNAVAILABLE);
  });

  it('a 401 ends the session through onUnauthorized and still rejects', async () => {
    const { client, deps } = clientWith(async () => jsonResponse(401, { detail: '登录已过期' }));
    const error = await caught(client.get('/api/containers'));
    expect(error.status).toBe(401);
    expect(deps.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('a 401 on a sign-in call is a wrong password, not an expired session', async () => {
    const { client, deps } = clientWith(async () => jsonResponse(401, { detail: '用户名或密码错误' }));
    const error = await caught(client.post('/api/auth/login', {}, { anonymous: true }));
    expect(error.detail).toBe('用户名或密码错误');
    expect(deps.onUnauthorized).not.toHaveBeenCalled();
  });

  it('after the timeout the request is aborted with 请求超时，请稍后重试', async () => {
    const hanging: ApiClientDeps['fetch'] = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const { client } = clientWith(hanging, { timeoutMs: 20 });
    const error = await caught(client.get('/api/slow'));
    expect(error.code).toBe('TIMEOUT');
    expect(error.detail).toBe(MESSAGE_TIMEOUT);
  });

  it('a network failure becomes 请求失败', async () => {
    const { client } = clientWith(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect((await caught(client.get('/api/x'))).detail).toBe(MESSAGE_FAILED);
  });

  it('a caller abort stays an AbortError so react-query can ignore it', async () => {
    const hanging: ApiClientDeps['fetch'] = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const { client } = clientWith(hanging);
    const controller = new AbortController();
    const pending = client.get('/api/x', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('buildUrl', () => {
  it('repeats array parameters and leaves out empty ones', () => {
    expect(
      buildUrl('/api/cloud-products', {
        gpuTypes: ['RTX 4090', 'A100'],
        region: '',
        systemType: undefined,
        gpuCount: 2,
      }),
    ).toBe('/api/cloud-products?gpuTypes=RTX+4090&gpuTypes=A100&gpuCount=2');
    expect(buildUrl('/api/x')).toBe('/api/x');
  });
});

describe('error texts', () => {
  it('errorFromResponse ignores a blank detail', () => {
    expect(errorFromResponse(400, '/api/x', { detail: '  ', message: '坏请求' }).detail).toBe('坏请求');
  });

  it('withDetail joins the action and the reason', () => {
    const error = new ApiError({ status: 400, code: null, detail: '价格已变化，请刷新后重试' });
    expect(withDetail('创建失败', error)).toBe('创建失败：价格已变化，请刷新后重试');
  });
});

describe('success and session rules', () => {
  it('only 2xx and 307 count as success', () => {
    for (const status of [200, 201, 204, 299, 307]) expect(isSuccess(status)).toBe(true);
    for (const status of [199, 300, 301, 302, 304, 308, 400, 401, 500, 503])
      expect(isSuccess(status)).toBe(false);
  });

  it('a 307 answer resolves with its body; a 304 is an error with 请求失败', async () => {
    const redirect = clientWith(async () => jsonResponse(307, { moved: true })).client;
    await expect(redirect.get('/api/x')).resolves.toEqual({ moved: true });
    const notModified = clientWith(async () => new Response(null, { status: 304 })).client;
    const error = await caught(notModified.get('/api/x'));
    expect(error.status).toBe(304);
    expect(error.detail).toBe(MESSAGE_FAILED);
  });

  it('requests time out after 30 s', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
  });

  it('handleUnauthorized logs out (token, user, API key) and moves to /login', () => {
    const navigate = vi.fn();
    setLoginNavigator(navigate);
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    window.localStorage.setItem('apiKey', 'k');
    handleUnauthorized();
    expect(getSession()).toEqual({ token: null, user: null });
    expect(window.localStorage.getItem('apiKey')).toBeNull();
    expect(navigate).toHaveBeenCalledTimes(1);
  });
});
