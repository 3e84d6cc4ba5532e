// The hot paths answered on the bare `http` request, before Koa (no context, no middleware
// chain): what a bare Node server costs, with the answer Koa's chain would have given.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { type AuthUser, tokenOfAuthorization } from './auth.js';
import { REQUEST_ID_HEADER, requestIdOf } from './errors.js';
import { clientInfo, type TrustProxy } from './proxy.js';
import { securityHeaderPairs } from './security-headers.js';
import type { ConsoleSite } from './static.js';

export const HEALTH_PATH = '/api/health';
/** What the health check answers. */
export const HEALTH_REPLY = { ok: true };
const HEALTH_BODY = Buffer.from(JSON.stringify(HEALTH_REPLY));

/**
 * A signed-in user's read that every console page makes (the balance, the container list),
 * answered before Koa when the user's session is remembered: `read` must be what the route's
 * handler answers for GET `path` (no query string) with a 200.
 */
export interface FastRead {
  path: string;
  read(user: AuthUser): Promise<unknown>;
}

export interface FastReads {
  /** The user of a bearer token whose session this process remembers (else Koa authenticates). */
  rememberedUser(token: string): AuthUser | undefined;
  reads: FastRead[];
}

/**
 * The hot paths answered on the bare `http` request, before Koa: GET/HEAD of the health check and
 * of the console's files, and GET of the reads in `api` for a remembered session, with what Koa's
 * chain would have answered (the security headers, the request id). Anything else (other
 * methods, absolute-form URLs, an unknown asset, a session to look up, a read that fails) is
 * Koa's.
 */
export function fastPath(trust: TrustProxy, site: ConsoleSite | undefined, api?: FastReads): FastPath {
  const reads = new Map((api?.reads ?? []).map((r) => [r.path, r]));
  const headOf = (req: IncomingMessage): [string, string][] => {
    const forwardedId = req.headers['x-request-id'];
    const https =
      trust.kind === 'none'
        ? Boolean((req.socket as { encrypted?: boolean }).encrypted)
        : clientInfo(trust, req).https;
    return [
      ...securityHeaderPairs(https),
      [REQUEST_ID_HEADER, requestIdOf(typeof forwardedId === 'string' ? forwardedId : undefined)],
    ];
  };
  const answerJson = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const headers: Record<string, string | number> = {};
    for (const [name, value] of headOf(req)) headers[name] = value;
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Content-Length'] = body.length;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };
  return (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    const url = req.url ?? '';
    if (url.charCodeAt(0) !== 47 /* / */ || url.includes('#')) return false;
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path === HEALTH_PATH) {
      answerJson(req, res, HEALTH_BODY);
      return true;
    }
    const fast = method === 'GET' && query === -1 ? reads.get(path) : undefined;
    if (fast && api) return answerRead(req, res, fast, api);
    return site?.answer(req, res, path, headOf(req)) ?? false;
  };

  function answerRead(req: IncomingMessage, res: ServerResponse, fast: FastRead, api: FastReads) {
    const token = tokenOfAuthorization(req.headers.authorization);
    const user = token ? api.rememberedUser(token) : undefined;
    if (!user) return false;
    // A read that fails is answered by Koa (which reads again and maps the error, logging it).
    return fast.read(user).then(
      (body) => {
        answerJson(req, res, Buffer.from(JSON.stringify(body)));
        return true;
      },
      () => false,
    );
  }
}

/**
 * A fast path: true once it answered the request, false (having written nothing) to pass it on;
 * a promise of either where it reads first.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/**
 * Whoever serves the app (listen(), or a test's callback()) gets `fast` before Koa: what it
 * answers never reaches the middleware.
 */
export function answerFirst(app: { callback: Koa['callback'] }, fast: FastPath): void {
  const koaCallback = app.callback.bind(app);
  app.callback = (() => {
    const handle = koaCallback();
    return (req: IncomingMessage, res: ServerResponse) => {
      const answered = fast(req, res);
      if (answered === true) return Promise.resolve();
      if (answered === false) return handle(req, res);
      return answered.then((done) => (done ? undefined : handle(req, res)));
    };
  }) as typeof app.callback;
}
