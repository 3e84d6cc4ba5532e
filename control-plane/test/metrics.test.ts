import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_METRIC,
  dashboardMetrics,
  type Exposition,
  exports,
  parsePrometheusText,
  samplesOf,
  sampleValue,
} from '../../node-agent/test/prometheus-text.js';
import { createApp } from '../src/app.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { ApiClient, startTestControlPlane } from './harness.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const HTTP = 'gpucloud_http_request_duration_seconds_count';

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;

beforeAll(async () => {
  // Settlements run when the test asks (settle(slot)); the hourly timer asks for one at the start.
  cp = await startTestControlPlane({
    meteringIntervalMs: 3_600_000,
    metricsToken: TOKEN,
    metricsListen: { host: '127.0.0.1', port: 0 },
  });
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'metrics-node');
});
afterAll(async () => {
  if (cp) await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

/** `token` null: no Authorization header. */
async function scrape(url = `${cp.url}/metrics`, token: string | null = TOKEN) {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function scraped(): Promise<{ text: string; expo: Exposition }> {
  const res = await scrape();
  expect(res.status).toBe(200);
  return { text: res.text, expo: parsePrometheusText(res.text) };
}

describe('the control plane’s /metrics', () => {
  it('is refused on the public port without the token or with a wrong one', async () => {
    const none = await scrape(`${cp.url}/metrics`, null);
    expect(none.status).toBe(401);
    expect(none.text).not.toContain('gpucloud_');
    const wrong = await scrape(`${cp.url}/metrics`, `${TOKEN}x`);
    expect(wrong.status).toBe(401);
    const basic = await fetch(`${cp.url}/metrics`, { headers: { authorization: `Basic ${TOKEN}` } });
    expect(basic.status).toBe(401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.type).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('answers 404 on the public port when no METRICS_TOKEN is set, even where the console would answer any path', async () => {
    const web = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-web-'));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>console</title>');
    const app = createApp({ ...cp.services, webDist: web, metricsToken: undefined, log: () => {} });
    const server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const token of [null, TOKEN]) {
        const res = await scrape(`${base}/metrics`, token);
        expect(res.status).toBe(404);
        expect(JSON.parse(res.text)).toEqual({ detail: '资源不存在', code: 'NOT_FOUND' });
      }
      // The console itself still answers (and is counted as the console, not by its path).
      const page = await fetch(`${base}/some/console/page`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('console');
      const { expo } = await scraped();
      expect(
        sampleValue(expo, HTTP, { method: 'GET', route: '(console)', status_class: '2xx' }),
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(web, { recursive: true, force: true });
    }
  });

  it('is served on METRICS_LISTEN too, with the token, and nothing else is', async () => {
    expect(cp.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const url = cp.metricsUrl as string;
    expect((await scrape(url, null)).status).toBe(401);
    const ok = await scrape(url);
    expect(ok.status).toBe(200);
    expect(samplesOf(parsePrometheusText(ok.text), 'gpucloud_containers').length).toBeGreaterThan(0);
    expect((await scrape(url.replace(/\/metrics$/, '/api/health'))).status).toBe(404);
  });

  it('times requests by route template, counts the fast path, keeps raw paths out of the labels', async () => {
    const buyer = new ApiClient(cp.url);
    await buyer.register('metrics-routes');
    const before = (await scraped()).expo;
    const health = (e: Exposition) =>
      sampleValue(e, HTTP, { method: 'GET', route: '/api/health', status_class: '2xx' }) ?? 0;
    for (let i = 0; i < 5; i++) expect((await buyer.request('GET', '/api/health')).status).toBe(200);
    const missingId = 'c-nosuchcontainer42';
    expect((await buyer.request('GET', `/api/containers/${missingId}`)).status).toBe(404);
    const unknownPath = '/api/no-such-route/9f8e7d6c5b';
    expect((await buyer.request('GET', unknownPath)).status).toBe(404);
    expect((await buyer.request('POST', '/api/auth/login', { username: 'x', password: '' })).status).toBe(
      400,
    );

    const { text, expo } = await scraped();
    // Answered before Koa (the fast path), each one counted.
    expect(health(expo) - health(before)).toBe(5);
    expect(
      sampleValue(expo, HTTP, { method: 'GET', route: '/api/containers/:id', status_class: '4xx' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(expo, HTTP, { method: 'GET', route: '(unmatched)', status_class: '4xx' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sampleValue(expo, HTTP, { method: 'POST', route: '/api/auth/login', status_class: '4xx' })).toBe(
      1,
    );
    // No label carries a path as asked: the id and the unknown path appear nowhere.
    expect(text).not.toContain(missingId);
    expect(text).not.toContain('9f8e7d6c5b');
    const routes = new Set(samplesOf(expo, HTTP).map((s) => s.labels.route));
    for (const route of routes) expect(route).toMatch(/^(\/api\/[a-z0-9\-/:_.]*|\(unmatched\)|\(console\))$/);
    expect(expo.types.get('gpucloud_http_request_duration_seconds')).toBe('histogram');
    // prom-client's default process metrics, on this registry.
    expect(sampleValue(expo, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(samplesOf(expo, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
  });

  it('counts purchases by outcome: ok once running, and each kind of refusal', async () => {
    const buyer = new ApiClient(cp.url);
    await buyer.register('metrics-buyer');
    const outcome = (e: Exposition, o: string) => sampleValue(e, 'gpucloud_purchases_total', { outcome: o });
    const before = (await scraped()).expo;
    for (const o of ['ok', 'failed_start', 'insufficient_balance', 'no_capacity', 'validation']) {
      expect(outcome(before, o)).toBe(0);
    }
    const buy = (overrides: Record<string, unknown>) =>
      buyer.request<{ container_id?: string; code?: string }>(
        'POST',
        `/api/cloud-products/${market.productId}/purchase`,
        purchaseBody(market, overrides),
      );

    // Waits (the harness) until the node has provisioned it.
    const bought = await buy({ instanceName: 'metrics-ok' });
    expect(bought.status).toBe(201);
    const id = bought.body.container_id as string;
    expect(await buyer.untilProvisioned(id)).toBe('running');
    // A daily rental costs more than the 20 yuan trial credit.
    expect((await buy({ billing_type: 'daily', total_price: 45.37 })).body.code).toBe('INSUFFICIENT_BALANCE');
    expect((await buy({ total_price: 0.01 })).body.code).toBe('PRICE_MISMATCH');
    // Eight GPUs when one of the node's eight is rented.
    expect((await buy({ gpuCount: 8 })).body.code).toBe('GPU_INSUFFICIENT');

    const { expo, text } = await scraped();
    expect(outcome(expo, 'ok')).toBe(1);
    expect(outcome(expo, 'insufficient_balance')).toBe(1);
    expect(outcome(expo, 'validation')).toBe(1);
    expect(outcome(expo, 'no_capacity')).toBe(1);
    expect(outcome(expo, 'failed_start')).toBe(0);
    expect(expo.types.get('gpucloud_purchases_total')).toBe('counter');

    // Containers by status, read from the database at the scrape: every status named.
    expect(sampleValue(expo, 'gpucloud_containers', { status: 'running' })).toBe(1);
    expect(sampleValue(expo, 'gpucloud_containers', { status: 'failed' })).toBe(0);
    expect(samplesOf(expo, 'gpucloud_containers')).toHaveLength(8);
    // The container's own page, by its route template.
    expect((await buyer.request('GET', `/api/containers/${id}`)).status).toBe(200);
    const after = (await scraped()).expo;
    expect(
      sampleValue(after, HTTP, { method: 'GET', route: '/api/containers/:id', status_class: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(id);
  });

  it('reports each node’s heartbeat lag and the job queues, read at the scrape', async () => {
    const { expo } = await scraped();
    const lag = sampleValue(expo, 'gpucloud_node_heartbeat_lag_seconds', {
      node: 'metrics-node',
      node_id: String(market.nodeId),
    });
    expect(lag).toBeGreaterThanOrEqual(0);
    // The agent beats every 500 ms; the lag is what the database holds, now.
    expect(lag).toBeLessThan(10);
    const queues = samplesOf(expo, 'gpucloud_job_queue_depth').map((s) => s.labels.queue);
    expect(queues).toContain('billing-settle');
    for (const s of samplesOf(expo, 'gpucloud_job_queue_depth')) expect(s.value).toBeGreaterThanOrEqual(0);
    expect(
      sampleValue(expo, 'gpucloud_metrics_read_failures_total', { reading: 'containers_by_status' }),
    ).toBeUndefined();
  });

  it('times each settlement this replica runs', async () => {
    const count = (e: Exposition) =>
      sampleValue(e, 'gpucloud_settlement_duration_seconds_count', { outcome: 'ok' }) ?? 0;
    const before = count((await scraped()).expo);
    const settlement = cp.jobs.settlement;
    if (!settlement) throw new Error('no settlement job');
    expect(await settlement.settle(9_000_001)).toBe(true);
    // A slot settled already is not settled (nor timed) again.
    expect(await settlement.settle(9_000_001)).toBe(false);
    const { expo } = await scraped();
    expect(count(expo)).toBe(before + 1);
    const sum = sampleValue(expo, 'gpucloud_settlement_duration_seconds_sum', { outcome: 'ok' }) as number;
    expect(sum).toBeGreaterThan(0);
    expect(
      sampleValue(expo, 'gpucloud_settlement_duration_seconds_bucket', { outcome: 'ok', le: '+Inf' }),
    ).toBe(before + 1);
  });

  it('is what the fleet dashboard reads: every query of deploy/grafana names a metric exported here or by the agents', async () => {
    const { expo } = await scraped();
    const names = dashboardMetrics();
    const ours = names.filter((n) => !AGENT_METRIC.test(n));
    expect(ours).toEqual(expect.arrayContaining(['gpucloud_purchases_total', 'gpucloud_containers']));
    expect(ours.filter((n) => !exports(expo, n))).toEqual([]);
  });
});
