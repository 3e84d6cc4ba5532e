// METRICS_LISTEN: /metrics on an address of its own (a private interface, 127.0.0.1:9464), apart
// from the public API; METRICS_TOKEN, when set, is asked for here too.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ControlPlaneMetrics } from './control-plane-metrics.js';
import { answerScrape, METRICS_PATH } from './http-metrics.js';

export interface MetricsListener {
  /** http://host:port/metrics, with the port bound (METRICS_LISTEN may ask for port 0). */
  url: string;
  close(): Promise<void>;
}

export async function listenForScrapes(
  listen: { host: string; port: number },
  metrics: ControlPlaneMetrics,
  token: string | undefined,
): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('not found: scrape /metrics\n');
      return;
    }
    void answerScrape(metrics, token, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${port}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
