import type { ContainerInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, configFromCli, writeSimulatedGpuControl } from '../src/index.js';
import {
  createRequest,
  eventually,
  gpuUuids,
  grpcError,
  sleep,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
  uniqueId,
} from './helpers.js';
import {
  AGENT_METRIC,
  dashboardMetrics,
  type Exposition,
  exports,
  parsePrometheusText,
  samplesOf,
  sampleValue,
} from './prometheus-text.js';

const TOKEN = 'agent-metrics-token-0123456789';
const INTERVAL_S = 2;
const MIB = 1024 * 1024;

/** `token` null: no Authorization header. */
async function scrape(url: string, token: string | null = TOKEN) {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('the agent’s Prometheus endpoint (--metrics-listen)', () => {
  let t: TestAgent;
  let url: string;
  let uuids: string[];
  let created: ContainerInfo__Output;
  const containerId = uniqueId('metrics');

  async function scraped(): Promise<Exposition> {
    const res = await scrape(url);
    expect(res.status).toBe(200);
    return parsePrometheusText(res.text);
  }

  beforeAll(async () => {
    t = await startTestAgent({
      metricsListen: '127.0.0.1:0',
      metricsToken: TOKEN,
      metricsInterval: INTERVAL_S,
    });
    url = t.agent.metricsUrl as string;
    uuids = await gpuUuids(t);
    created = await createRequest(t, {
      spec: testSpec(t, { containerId, gpuDeviceIds: [uuids[2] as string, uuids[5] as string] }),
      start: true,
    });
    expect(created.state).toBe('CONTAINER_STATE_RUNNING');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a scrape without the token or with a wrong one, and serves nothing but /metrics', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const none = await scrape(url, null);
    expect(none.status).toBe(401);
    expect(none.text).not.toContain('gpucloud_');
    expect((await scrape(url, `${TOKEN}x`)).status).toBe(401);
    expect((await scrape(url.replace(/\/metrics$/, '/'))).status).toBe(404);
    const ok = await scrape(url);
    expect(ok.status).toBe(200);
    expect(ok.type).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('reports every simulated GPU with its node, index, uuid, model and simulated="true"', async () => {
    const expo = await scraped();
    const node = t.agent.config.nodeName;
    const util = samplesOf(expo, 'gpucloud_gpu_utilization_percent');
    expect(util.map((s) => s.labels.uuid).sort()).toEqual([...uuids].sort());
    for (const [index, uuid] of uuids.entries()) {
      const labels = { node, gpu: String(index), uuid, model: 'NVIDIA GeForce RTX 4090', simulated: 'true' };
      const utilisation = sampleValue(expo, 'gpucloud_gpu_utilization_percent', labels) as number;
      expect(utilisation).toBeGreaterThanOrEqual(0);
      expect(utilisation).toBeLessThanOrEqual(100);
      expect(sampleValue(expo, 'gpucloud_gpu_memory_total_bytes', labels)).toBe(24564 * MIB);
      const used = sampleValue(expo, 'gpucloud_gpu_memory_used_bytes', labels) as number;
      expect(used).toBeGreaterThan(0);
      expect(used).toBeLessThanOrEqual(24564 * MIB);
      expect(sampleValue(expo, 'gpucloud_gpu_temperature_celsius', labels)).toBeGreaterThan(0);
      expect(sampleValue(expo, 'gpucloud_gpu_power_draw_watts', labels)).toBeGreaterThan(0);
    }
    expect(expo.types.get('gpucloud_gpu_utilization_percent')).toBe('gauge');
    // prom-client's default process metrics, on the agent's own registry.
    expect(sampleValue(expo, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('names the platform container holding each GPU, and no holder for a free one', async () => {
    const expo = await scraped();
    const held = samplesOf(expo, 'gpucloud_gpu_container_info');
    expect(held.map((s) => [s.labels.gpu, s.labels.uuid, s.labels.container_id, s.value])).toEqual([
      ['2', uuids[2], containerId, 1],
      ['5', uuids[5], containerId, 1],
    ]);
  });

  it('reports the running container’s CPU time and memory, and counts Docker’s restarts of it', async () => {
    const node = t.agent.config.nodeName;
    const labels = { node, container_id: containerId };
    const first = await scraped();
    expect(sampleValue(first, 'gpucloud_container_cpu_seconds_total', labels)).toBeGreaterThan(0);
    expect(sampleValue(first, 'gpucloud_container_memory_bytes', labels)).toBeGreaterThan(0);
    expect(sampleValue(first, 'gpucloud_container_restarts_total', labels)).toBe(0);
    expect(first.types.get('gpucloud_container_cpu_seconds_total')).toBe('counter');

    // The container's init killed from the host: Docker restarts it (restart policy unless-stopped).
    const pid = (await t.docker.getContainer(created.dockerId).inspect()).State.Pid;
    process.kill(pid, 'SIGKILL');
    await eventually(
      async () => {
        const expo = await scraped();
        return sampleValue(expo, 'gpucloud_container_restarts_total', labels) === 1 ? true : undefined;
      },
      30_000,
      'the restart to be counted',
    );
  });

  it('times Docker calls by operation and outcome', async () => {
    // An inspect of a container Docker does not have: a 404, an error outcome.
    const missing = await grpcError(
      unaryCall((cb) => t.client.inspectContainer({ containerId: uniqueId('none') }, t.md, cb)),
    );
    expect(missing.code).toBe(grpc.status.NOT_FOUND);
    const expo = await scraped();
    const count = (operation: string, outcome: string) =>
      sampleValue(expo, 'gpucloud_docker_call_duration_seconds_count', { operation, outcome }) ?? 0;
    expect(count('engine.createContainer', 'ok')).toBeGreaterThanOrEqual(1);
    expect(count('container.start', 'ok')).toBeGreaterThanOrEqual(1);
    expect(count('container.inspect', 'ok')).toBeGreaterThanOrEqual(1);
    expect(count('container.inspect', 'error')).toBeGreaterThanOrEqual(1);
    expect(count('container.stats', 'ok')).toBeGreaterThanOrEqual(1);
    expect(count('engine.listContainers', 'ok')).toBeGreaterThanOrEqual(1);
    // Operations are dockerode's method names: no container id or image name in a label.
    for (const s of samplesOf(expo, 'gpucloud_docker_call_duration_seconds_count')) {
      expect(s.labels.operation).toMatch(/^(engine|container|image|network|volume|exec)\.[a-zA-Z]+$/);
    }
    expect(JSON.stringify(samplesOf(expo, 'gpucloud_docker_call_duration_seconds_count'))).not.toContain(
      containerId,
    );
  });

  it('keeps the GPU and container figures between scrapes for the interval, then reads them again', async () => {
    const readAt = (e: Exposition) =>
      sampleValue(e, 'gpucloud_agent_metrics_read_timestamp_seconds') as number;
    const stats = (e: Exposition) =>
      sampleValue(e, 'gpucloud_docker_call_duration_seconds_count', {
        operation: 'container.stats',
        outcome: 'ok',
      });
    // Whatever the last reading's age, this one is fresh: the next ones within the interval reuse it.
    await sleep(INTERVAL_S * 1000 + 100);
    const a = await scraped();
    const [b, c] = await Promise.all([scraped(), scraped()]);
    for (const e of [b, c]) {
      expect(readAt(e)).toBe(readAt(a));
      expect(stats(e)).toBe(stats(a));
    }
    // A GPU lost (the simulated probe's control file): seen at the next reading, not before.
    await writeSimulatedGpuControl(t.stateDir, { order: uuids.slice(0, 7) });
    expect(samplesOf(await scraped(), 'gpucloud_gpu_utilization_percent')).toHaveLength(8);
    await sleep(INTERVAL_S * 1000 + 100);
    const later = await scraped();
    expect(readAt(later)).toBeGreaterThan(readAt(a));
    expect(stats(later)).toBeGreaterThan(stats(a) as number);
    const gpus = samplesOf(later, 'gpucloud_gpu_utilization_percent').map((s) => s.labels.uuid);
    expect(gpus).toHaveLength(7);
    expect(gpus).not.toContain(uuids[7]);
    expect(sampleValue(later, 'gpucloud_agent_metrics_read_failures_total', { source: 'gpus' })).toBe(0);
    expect(sampleValue(later, 'gpucloud_agent_metrics_read_failures_total', { source: 'containers' })).toBe(
      0,
    );
  });

  it('is what the fleet dashboard reads: every agent metric its queries name is exported', async () => {
    const expo = await scraped();
    const ours = dashboardMetrics().filter((n) => AGENT_METRIC.test(n));
    expect(ours).toEqual(
      expect.arrayContaining(['gpucloud_gpu_utilization_percent', 'gpucloud_gpu_container_info']),
    );
    expect(ours.filter((n) => !exports(expo, n))).toEqual([]);
    // The dashboard picks nodes by the node label: every agent series carries it.
    const unlabelled = expo.samples.filter(
      (s) => s.name.startsWith('gpucloud_') && s.labels.node !== t.agent.config.nodeName,
    );
    expect(unlabelled).toEqual([]);
  });
});

describe('the agent’s metrics settings', () => {
  const cli = (...argv: string[]) => configFromCli({ argv: ['--token', 't0k3n', ...argv], env: {} });

  it('serves no metrics unless --metrics-listen is set', async () => {
    const config = cli();
    expect(config === 'help' ? undefined : config.metricsListen).toBeUndefined();
    const plain = await startTestAgent();
    try {
      expect(plain.agent.metricsUrl).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it('reads --metrics-listen, --metrics-token and --metrics-interval, from flags or the environment', () => {
    expect(
      cli('--metrics-listen', '0.0.0.0:9101', '--metrics-token', TOKEN, '--metrics-interval', '30'),
    ).toMatchObject({
      metricsListen: '0.0.0.0:9101',
      metricsToken: TOKEN,
      metricsIntervalMs: 30_000,
    });
    const fromEnv = configFromCli({
      argv: ['--token', 't0k3n'],
      env: { AGENT_METRICS_LISTEN: '[::1]:9101', AGENT_METRICS_TOKEN: TOKEN },
    });
    expect(fromEnv).toMatchObject({
      metricsListen: '[::1]:9101',
      metricsToken: TOKEN,
      metricsIntervalMs: 15_000,
    });
  });

  it('refuses a token without an address, a short token, a bad address or interval', () => {
    expect(() => cli('--metrics-token', TOKEN)).toThrow(ConfigError);
    expect(() => cli('--metrics-listen', '127.0.0.1:9101', '--metrics-token', 'short')).toThrow(
      /16 characters/,
    );
    expect(() => cli('--metrics-listen', '9101')).toThrow(/host:port/);
    expect(() => cli('--metrics-listen', '127.0.0.1:9101', '--metrics-interval', '0')).toThrow(
      /--metrics-interval/,
    );
  });
});
