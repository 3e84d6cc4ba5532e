import { describe, expect, it } from 'vitest';
import { parsePrometheusText, samplesOf, sampleValue } from '../../../node-agent/test/prometheus-text.js';
import { parseMetricsListen, parseMetricsToken } from '../config.js';
import { ControlPlaneMetrics } from './control-plane-metrics.js';
import { bearerMatches, CONSOLE_ROUTE, routeLabel, UNMATCHED_ROUTE } from './http-metrics.js';

describe('the control plane metrics registry', () => {
  it('when a reading fails, the scrape still answers: that metric is left empty, the failure logged and counted', async () => {
    const logged: string[] = [];
    const metrics = new ControlPlaneMetrics((message) => logged.push(message));
    metrics.readFleet({
      containersByStatus: () => Promise.reject(new Error('database down')),
      heartbeatLags: async () => [
        { id: 7, name: 'gpu-a', lagMs: 2500 },
        { id: 8, name: 'never-heard', lagMs: null },
      ],
    });
    metrics.readQueues({ queueDepths: async () => [{ queue: 'billing-settle', depth: 3 }] });
    const expo = parsePrometheusText(await metrics.text());
    expect(samplesOf(expo, 'gpucloud_containers')).toEqual([]);
    expect(
      sampleValue(expo, 'gpucloud_metrics_read_failures_total', { reading: 'containers_by_status' }),
    ).toBe(1);
    expect(logged).toEqual(['metrics: reading containers_by_status failed']);
    expect(samplesOf(expo, 'gpucloud_node_heartbeat_lag_seconds')).toEqual([
      { name: 'gpucloud_node_heartbeat_lag_seconds', labels: { node: 'gpu-a', node_id: '7' }, value: 2.5 },
    ]);
    expect(sampleValue(expo, 'gpucloud_job_queue_depth', { queue: 'billing-settle' })).toBe(3);
  });

  it('two registries are two graphs: nothing is shared through a global one', async () => {
    const a = new ControlPlaneMetrics(() => {});
    const b = new ControlPlaneMetrics(() => {});
    a.purchaseOutcomes.record('ok');
    a.settlementTimed(0.2, 'ok');
    const inA = parsePrometheusText(await a.text());
    const inB = parsePrometheusText(await b.text());
    expect(sampleValue(inA, 'gpucloud_purchases_total', { outcome: 'ok' })).toBe(1);
    expect(sampleValue(inB, 'gpucloud_purchases_total', { outcome: 'ok' })).toBe(0);
    expect(sampleValue(inA, 'gpucloud_settlement_duration_seconds_count', { outcome: 'ok' })).toBe(1);
    expect(sampleValue(inB, 'gpucloud_settlement_duration_seconds_count', { outcome: 'ok' })).toBeUndefined();
  });
});

describe('route labels and the token', () => {
  it('labels a request by the matched route’s pattern, else one label for the console and one for the rest', () => {
    expect(routeLabel('/api/containers/:id', '/api/containers/c-123', 200)).toBe('/api/containers/:id');
    expect(routeLabel(/^\/api\/x\/(\d+)$/, '/api/x/1', 200)).toBe('/^\\/api\\/x\\/(\\d+)$/');
    expect(routeLabel(undefined, '/api/nothing/here', 404)).toBe(UNMATCHED_ROUTE);
    expect(routeLabel(undefined, '/some/page', 200)).toBe(CONSOLE_ROUTE);
    expect(routeLabel(undefined, '/assets/gone.js', 404)).toBe(UNMATCHED_ROUTE);
  });

  it('accepts only the exact bearer token', () => {
    expect(bearerMatches('Bearer abcdefghijklmnop', 'abcdefghijklmnop')).toBe(true);
    expect(bearerMatches('bearer abcdefghijklmnop', 'abcdefghijklmnop')).toBe(true);
    expect(bearerMatches('Bearer abcdefghijklmnoq', 'abcdefghijklmnop')).toBe(false);
    expect(bearerMatches('Bearer abcdefghijklmno', 'abcdefghijklmnop')).toBe(false);
    expect(bearerMatches('abcdefghijklmnop', 'abcdefghijklmnop')).toBe(false);
    expect(bearerMatches(undefined, 'abcdefghijklmnop')).toBe(false);
  });

  it('reads METRICS_TOKEN and METRICS_LISTEN, refusing a short token and a bad address', () => {
    expect(parseMetricsToken(undefined)).toBeUndefined();
    expect(parseMetricsToken('0123456789abcdef')).toBe('0123456789abcdef');
    expect(() => parseMetricsToken('short')).toThrow(/METRICS_TOKEN/);
    expect(parseMetricsListen('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseMetricsListen('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
    expect(parseMetricsListen(undefined)).toBeUndefined();
    expect(() => parseMetricsListen('9464')).toThrow(/METRICS_LISTEN/);
    expect(() => parseMetricsListen('127.0.0.1:99999')).toThrow(/METRICS_LISTEN/);
  });
});
