import { ApiError, CliError } from './errors.js';
import type { Messages } from './i18n.js';

declare const CLI_VERSION: string;
/** Set by the bundle (build.mjs); tests run the sources. */
export const VERSION = typeof CLI_VERSION === 'string' ? CLI_VERSION : '0.0.0-dev';

type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds before the request is given up (default 120 s: a start may take a while). */
  timeoutMs?: number;
}

/** The HTTP API with an API key (`X-API-Key`); errors become ApiError (the API's detail and code). */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
    private readonly msg: Messages,
  ) {}

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', path, { query });
  }

  post<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('POST', path, { ...options, body: body ?? {} });
  }

  delete<T>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  url(path: string, query?: Query): string {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** The same path as a WebSocket URL (ws: for http:, wss: for https:). */
  wsUrl(path: string, query?: Query): string {
    return this.url(path, query).replace(/^http/, 'ws');
  }

  headers(): Record<string, string> {
    return { 'x-api-key': this.apiKey, 'user-agent': `gpucloud-cli/${VERSION}` };
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.url(path, options.query), {
        method,
        headers: {
          ...this.headers(),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
      });
    } catch (err) {
      throw new NetworkError(this.msg.unreachable(this.baseUrl, reason(err)));
    }
    const text = await res.text();
    if (!res.ok) throw errorFrom(res.status, text, this.msg);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

/** The server could not be reached, or did not answer in time. */
export class NetworkError extends CliError {
  override name = 'NetworkError';
}

/** `{detail, code}` as the API words its errors; anything else (a proxy's page) by its status. */
export function errorFrom(status: number, text: string, msg: Messages): ApiError {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null) {
      const { detail, code } = body as { detail?: unknown; code?: unknown };
      if (typeof detail === 'string' && detail)
        return new ApiError(status, detail, typeof code === 'string' ? code : undefined);
    }
  } catch {
    // not JSON: worded below
  }
  return new ApiError(status, msg.httpStatus(status), undefined);
}

function reason(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'timeout';
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
