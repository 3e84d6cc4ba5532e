// The hot paths answered on the bare `http` request, before Koa (no context, no middleware
// chain): what a bare Node server costs, with the answer Koa's chain would have given.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { REQUEST_ID_HEADER, requestIdOf } from './errors.js';
import { clientInfo, type TrustProxy } from './proxy.js';
import { securityHeaderPairs } from './security-headers.js';
import type { ConsoleSite } from './static.js';

export const HEALTH_PATH = '/api/health';
/** What the health check answers. */
export const HEALTH_REPLY = { ok: true };
const HEALTH_BODY = Buffer.from(JSON.stringify(HEALTH_REPLY));

/**
 * The hot paths answered on the bare `http` request, before Koa: GET/HEAD of the health check and
 * of the console's files, with what Koa's chain would have answered (the security headers, the
 * request id). Anything else (other methods, absolute-form URLs, an unknown asset) is Koa's.
 */
export function fastPath(trust: TrustProxy, site: ConsoleSite | undefined): FastPath {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '';
    if (url.charCodeAt(0) !== 47 /* / */ || url.includes('#')) return false;
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const isHealth = path === HEALTH_PATH;
    if (!isHealth && !site) return false;
    const forwardedId = req.headers['x-request-id'];
    const https =
      trust.kind === 'none'
        ? Boolean((req.socket as { encrypted?: boolean }).encrypted)
        : clientInfo(trust, req).https;
    const head: [string, string][] = [
      ...securityHeaderPairs(https),
      [REQUEST_ID_HEADER, requestIdOf(typeof forwardedId === 'string' ? forwardedId : undefined)],
    ];
    if (!isHealth) return site?.answer(req, res, path, head) ?? false;
    const headers: Record<string, string | number> = {};
    for (const [name, value] of head) headers[name] = value;
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Content-Length'] = HEALTH_BODY.length;
    res.writeHead(200, headers);
    if (method === 'HEAD') res.end();
    else res.end(HEALTH_BODY);
    return true;
  };
}

/** A fast path: true once it answered the request, false (having written nothing) to pass it on. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Whoever serves the app (listen(), or a test's callback()) gets `fast` before Koa: what it
 * answers never reaches the middleware.
 */
export function answerFirst(app: { callback: Koa['callback'] }, fast: FastPath): void {
  const koaCallback = app.callback.bind(app);
  app.callback = (() => {
    const handle = koaCallback();
    return (req: IncomingMessage, res: ServerResponse) =>
      fast(req, res) ? Promise.resolve() : handle(req, res);
  }) as typeof app.callback;
}
