// The HTTP side of the metrics: request durations by route template (the router's pattern,
// `/api/containers/:id`, never the raw path, so the label set stays bounded whatever the paths
// asked), for Koa's requests and for those the fast path answers before Koa; and /metrics itself,
// on the public port only with METRICS_TOKEN (404 otherwise), or on a listener of its own
// (METRICS_LISTEN, metrics-listener.ts).
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import { tokenOfAuthorization } from '../framework/auth.js';
import type { FastPath } from '../framework/fast-path.js';
import type { ControlPlaneMetrics } from './control-plane-metrics.js';

export const METRICS_PATH = '/metrics';
/** Where no route matched (404s, 405s, probes of random paths): one label for all of them. */
export const UNMATCHED_ROUTE = '(unmatched)';
/** The console's files and pages (served by the fast path or Koa's static middleware). */
export const CONSOLE_ROUTE = '(console)';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

function methodLabel(method: string | undefined): string {
  return method && METHODS.has(method) ? method : 'OTHER';
}

function statusClass(status: number): string {
  return STATUS_CLASSES[Math.floor(status / 100)] ?? '5xx';
}

/** The route label of a request Koa answered: the matched route's pattern, else one of two labels. */
export function routeLabel(matched: unknown, path: string, status: number): string {
  if (typeof matched === 'string') return matched;
  if (matched instanceof RegExp) return String(matched);
  // Whatever is not the API's, the console answered (its page or its file) unless it failed.
  return !path.startsWith('/api') && status < 400 ? CONSOLE_ROUTE : UNMATCHED_ROUTE;
}

/** Whether an Authorization header carries the token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const bearer = tokenOfAuthorization(header);
  if (!bearer) return false;
  const given = Buffer.from(bearer);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Answers a scrape: 401 without the token where one is set, else the exposition. Used by the
 * public port (where a token is always set) and by the metrics listener.
 */
export async function answerScrape(
  metrics: ControlPlaneMetrics,
  token: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
    res.writeHead(401, { 'Content-Type': 'application/json; charset=utf-8', 'WWW-Authenticate': 'Bearer' });
    res.end(JSON.stringify({ detail: '未授权', code: 'UNAUTHORIZED' }));
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' });
    res.end();
    return;
  }
  let body: string;
  try {
    body = await metrics.text();
  } catch (err) {
    metrics.log('metrics: the scrape failed', err);
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('the metrics could not be collected\n');
    return;
  }
  res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function isMetricsPath(url: string | undefined): boolean {
  return url === METRICS_PATH || (url?.startsWith(`${METRICS_PATH}?`) ?? false);
}

export interface HttpMetrics {
  /** Times every request Koa answers; the first middleware, so it sees the final status. */
  middleware: Middleware;
  /** The fast path, timed (one observe per answer), and /metrics of the public port before it. */
  fastPath(fast: FastPath): FastPath;
}

/**
 * `token` (METRICS_TOKEN): /metrics answers on the public port with that bearer token; without
 * one it answers 404 there (the metrics are then only on METRICS_LISTEN, or nowhere).
 */
export function httpMetrics(metrics: ControlPlaneMetrics, token: string | undefined): HttpMetrics {
  const { http } = metrics;
  const notFound = Buffer.from(JSON.stringify({ detail: '资源不存在', code: 'NOT_FOUND' }));
  const fastAnswered = (req: IncomingMessage, res: ServerResponse, started: number) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    // The fast path answers fixed API paths (health, the remembered reads: their route is their
    // path) and the console's files.
    const route = path.startsWith('/api/') ? path : CONSOLE_ROUTE;
    http.observe(
      { method: methodLabel(req.method), route, status_class: statusClass(res.statusCode) },
      (performance.now() - started) / 1000,
    );
  };
  return {
    middleware: async (ctx, next) => {
      const started = performance.now();
      let status: number | undefined;
      try {
        await next();
      } catch (err) {
        // Only what escapes the error middleware (it maps everything else to a status first).
        const s = (err as { status?: unknown }).status;
        status = typeof s === 'number' && s >= 400 && s < 600 ? s : 500;
        throw err;
      } finally {
        const final = status ?? ctx.status;
        http.observe(
          {
            method: methodLabel(ctx.method),
            route: routeLabel((ctx as { _matchedRoute?: unknown })._matchedRoute, ctx.path, final),
            status_class: statusClass(final),
          },
          (performance.now() - started) / 1000,
        );
      }
    },
    fastPath(fast) {
      return (req, res) => {
        if (isMetricsPath(req.url)) {
          if (token === undefined) {
            res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' });
            res.end(notFound);
            return true;
          }
          return answerScrape(metrics, token, req, res).then(() => true);
        }
        const started = performance.now();
        const answered = fast(req, res);
        if (answered === true) {
          fastAnswered(req, res, started);
          return true;
        }
        if (answered === false) return false;
        return answered.then((done) => {
          if (done) fastAnswered(req, res, started);
          return done;
        });
      };
    },
  };
}
