// --metrics-listen: GET /metrics over plain HTTP on an address of its own (the gRPC port speaks
// only gRPC), with --metrics-token asked for as a bearer token when set.
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentMetrics } from './agent-metrics.js';

export const METRICS_PATH = '/metrics';

export interface MetricsServer {
  /** http://host:port/metrics with the port bound (`--metrics-listen 127.0.0.1:0` picks one). */
  url: string;
  close(): Promise<void>;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** host:port, [v6]:port. */
function splitListen(listen: string): { host: string; port: number } {
  const at = listen.lastIndexOf(':');
  return { host: listen.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(listen.slice(at + 1)) };
}

export async function serveMetrics(options: {
  listen: string;
  token: string | undefined;
  metrics: AgentMetrics;
  log: (line: string) => void;
}): Promise<MetricsServer> {
  const { metrics, token, log } = options;
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== METRICS_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found: scrape /metrics\n');
      return;
    }
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8', 'WWW-Authenticate': 'Bearer' });
      res.end('unauthorized: a bearer token is required\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    metrics.text().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        log(`metrics: the scrape failed: ${err instanceof Error ? err.message : String(err)}`);
        res
          .writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
          .end('the metrics could not be collected\n');
      },
    );
  });
  const { host, port } = splitListen(options.listen);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const dialHost = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return {
    url: `http://${dialHost.includes(':') ? `[${dialHost}]` : dialHost}:${bound}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
