import { clearSession, getApiKey, getToken } from './auth';

export const REQUEST_TIMEOUT_MS = 30_000;

export const MESSAGE_TIMEOUT = '请求超时，请稍后重试';
export const MESSAGE_UNAVAILABLE = '服务暂时不可用，请稍后再试';
export const MESSAGE_WECHAT_UNAVAILABLE = '微信支付服务暂时不可用，请稍后再试或选择其他支付方式';
export const MESSAGE_FAILED = '请求失败';

/**
 * A failed request. `detail` is the text to show the user, chosen by the global rules of the spec
 * (timeout, 503, server detail, server message, fallback); `serverDetail` is what the server said.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly detail: string;
  readonly serverDetail: string | null;

  constructor(init: { status: number; code: string | null; detail: string; serverDetail?: string | null }) {
    super(init.detail);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.serverDetail = init.serverDetail ?? null;
  }
}

/** The message of any error thrown by a request, for "<操作>失败：<detail>" toasts. */
export function errorDetail(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  if (error instanceof Error && error.message) return error.message;
  return MESSAGE_FAILED;
}

export function withDetail(prefix: string, error: unknown): string {
  return `${prefix}：${errorDetail(error)}`;
}

/**
 * Like withDetail, but the server's own detail wins over the global status texts: the spec
 * has the purchase show the server's detail when present (a 503 there says *which* dependency
 * is down, e.g. 节点的 Docker 服务不可用).
 */
export function withServerDetail(prefix: string, error: unknown): string {
  if (error instanceof ApiError && error.serverDetail) return `${prefix}：${error.serverDetail}`;
  return withDetail(prefix, error);
}

type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
export type QueryParams = Readonly<Record<string, QueryValue>>;

export interface RequestOptions {
  params?: QueryParams;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /** Sign-in calls: no bearer token, and a 401 is a wrong password rather than an expired session. */
  anonymous?: boolean;
  /**
   * The caller handles a 401 itself (the profile load shows 登录已过期 and leaves after 1.5 s)
   * instead of the global immediate logout.
   */
  handlesUnauthorized?: boolean;
  /** 'blob': a successful answer is returned as a Blob (a file to save), not parsed as JSON. */
  as?: 'json' | 'blob';
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  getToken: () => string | null;
  getApiKey: () => string | null;
  onUnauthorized: () => void;
  timeoutMs: number;
}

export function buildUrl(path: string, params?: QueryParams): string {
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      for (const item of value as ReadonlyArray<string | number>) search.append(key, String(item));
    } else {
      search.append(key, String(value));
    }
  }
  const query = search.toString();
  return query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
}

function stringField(body: unknown, field: string): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The spec's global error rule: 503 has fixed texts, otherwise detail, else message, else 请求失败. */
export function errorFromResponse(status: number, url: string, body: unknown): ApiError {
  const serverDetail = stringField(body, 'detail');
  const code = stringField(body, 'code');
  let detail: string;
  if (status === 503) {
    detail = url.toLowerCase().includes('wechat') ? MESSAGE_WECHAT_UNAVAILABLE : MESSAGE_UNAVAILABLE;
  } else {
    detail = serverDetail ?? stringField(body, 'message') ?? MESSAGE_FAILED;
  }
  return new ApiError({ status, code, detail, serverDetail });
}

/**
 * The spec's success rule: 2xx, and 307. The browser follows redirects itself (its own limit,
 * not the spec's 5: fetch cannot lower it), so a 307 only arrives here when it could not be
 * followed; it still counts as success rather than as an error to show.
 */
export function isSuccess(status: number): boolean {
  return (status >= 200 && status < 300) || status === 307;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createApiClient(deps: ApiClientDeps) {
  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = buildUrl(path, options.params);
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (!options.anonymous) {
      const token = deps.getToken();
      if (token) headers.Authorization = `Bearer ${token}`;
      const apiKey = deps.getApiKey();
      if (apiKey) headers['X-API-Key'] = apiKey;
    }

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, deps.timeoutMs);
    const onCallerAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onCallerAbort);

    let response: Response;
    try {
      response = await deps.fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: controller.signal,
      });
    } catch (cause) {
      if (timedOut) throw new ApiError({ status: 0, code: 'TIMEOUT', detail: MESSAGE_TIMEOUT });
      // A caller abort (react-query cancelling a stale query) must stay an AbortError.
      if (options.signal?.aborted) throw cause;
      throw new ApiError({ status: 0, code: 'NETWORK_ERROR', detail: MESSAGE_FAILED });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }

    if (options.as === 'blob' && isSuccess(response.status)) return (await response.blob()) as T;
    const body = await readBody(response);
    if (isSuccess(response.status)) return body as T;
    if (response.status === 401 && !options.anonymous && !options.handlesUnauthorized) {
      deps.onUnauthorized();
    }
    throw errorFromResponse(response.status, url, body);
  }

  return {
    request,
    get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
    post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
      request<T>('POST', path, { ...options, body }),
    put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
      request<T>('PUT', path, { ...options, body }),
    delete: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('DELETE', path, options),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

let navigateToLogin: () => void = () => {
  window.location.assign('/login');
};

/** The router installs an in-app navigation here so a 401 does not reload the page. */
export function setLoginNavigator(navigate: () => void): void {
  navigateToLogin = navigate;
}

export function handleUnauthorized(): void {
  clearSession();
  if (window.location.pathname !== '/login') navigateToLogin();
}

export const api: ApiClient = createApiClient({
  fetch: (input, init) => window.fetch(input, init),
  getToken,
  getApiKey,
  onUnauthorized: handleUnauthorized,
  timeoutMs: REQUEST_TIMEOUT_MS,
});
