// 监控 (GET /api/containers/{id}/metrics): a node's GPU samples attributed to the container holding
// each GPU when they come, kept per minute and per 5 minutes, bounded, removed with the container.
// Real agents on simulated GPUs feed it; samples written through the service with chosen values
// and times check the arithmetic.
import type { GpuInfo__Output, GpuSample__Output } from '@gpucloud/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerMetricsReply } from '../src/modules/containers/contract.js';
import { ContainerGpuSamples } from '../src/modules/containers/gpu-samples.js';
import { ContainerGpuSamplesRepository } from '../src/modules/containers/gpu-samples-repository.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { ApiClient, startTestControlPlane } from './harness.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseSettled } from './purchase.js';

type Metrics = ReturnType<typeof containerMetricsReply.parse>;
type Point = NonNullable<Metrics['samples'][number]['gpus'][number]>;

const MINUTE = 60_000;
const FIVE = 5 * MINUTE;
const floorTo = (t: number, step: number) => Math.floor(t / step) * step;

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let alice: ApiClient;
let bob: ApiClient;
/** Every GPU of the node, by index. */
let nodeGpus: { uuid: string; gpu_index: number }[];
let a: string; // alice's, 2 GPUs
let b: string; // bob's, 1 GPU

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function metrics(client: ApiClient, id: string, query = 'range=1h'): Promise<Metrics> {
  const res = await client.request<Metrics>('GET', `/api/containers/${id}/metrics?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectServed(containerMetricsReply, res.body);
  return res.body;
}

async function heldUuids(client: ApiClient, id: string): Promise<string[]> {
  const res = await client.request<{ gpus: { uuid: string }[] }>('GET', `/api/containers/${id}`);
  return res.body.gpus.map((g) => g.uuid).sort();
}

interface Reading {
  utilization: number;
  memory: number;
  temperature: number;
  power: number;
}

/** A sample of every GPU of the node at `at`, as the agent sends it (idle where `values` says nothing). */
function sampleAt(at: number, values: (uuid: string) => Reading | undefined): GpuSample__Output {
  return {
    timeUnixMs: String(at),
    gpus: nodeGpus.map((g): GpuInfo__Output => {
      const v = values(g.uuid) ?? { utilization: 0, memory: 0, temperature: 30, power: 20 };
      return {
        index: g.gpu_index,
        uuid: g.uuid,
        model: 'NVIDIA GeForce RTX 4090',
        memoryTotalMib: '24564',
        memoryUsedMib: String(v.memory),
        utilizationPercent: v.utilization,
        memoryUtilizationPercent: 0,
        temperatureC: v.temperature,
        powerDrawW: v.power,
        powerLimitW: 450,
        pciBusId: '',
        healthProblem: '',
        persistenceMode: true,
        migEnabled: false,
        fabricState: '',
        numaNode: 0,
        nvlinkPeers: [],
      };
    }),
  };
}

/** Records samples as the node monitor does, and writes them now (not when their minute is over). */
async function record(samples: GpuSample__Output[]): Promise<void> {
  for (const s of samples) cp.services.containers.recordGpuSample(market.nodeId, s);
  await cp.services.containers.flushGpuSamples();
}

const pointAt = (m: Metrics, t: number, uuid: string): Point | null | undefined => {
  const sample = m.samples.find((s) => s.t === new Date(t).toISOString());
  const i = m.gpus.findIndex((g) => g.uuid === uuid);
  return sample && i >= 0 ? sample.gpus[i] : undefined;
};

const rowsOf = async (id: string) => ({
  minutes: (await cp.knex('container_gpu_samples').where('container_id', id).select('minute')).map((r) =>
    new Date(r.minute).getTime(),
  ),
  spans: (await cp.knex('container_gpu_samples_5m').where('container_id', id).select('bucket')).map((r) =>
    new Date(r.bucket).getTime(),
  ),
});

beforeAll(async () => {
  cp = await startTestControlPlane({ heartbeatIntervalMs: 500, monitorSyncIntervalMs: 1000 });
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'metrics-node');
  nodeGpus = (await cp.services.nodes.gpus(market.nodeId)).map((g) => ({
    uuid: g.uuid,
    gpu_index: g.gpu_index,
  }));
  alice = new ApiClient(cp.url);
  await alice.register('monitor-alice');
  bob = new ApiClient(cp.url);
  await bob.register('monitor-bob');
  a = await purchaseSettled(cp, alice, market, { gpuCount: 2 });
  b = await purchaseSettled(cp, bob, market, { gpuCount: 1 });
});

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

describe('监控 of a container', () => {
  it('shows the samples of a real agent on simulated GPUs for the GPUs the container holds, to its owner only', async () => {
    expect((await alice.request<{ status: string }>('GET', `/api/containers/${a}`)).body.status).toBe(
      'running',
    );
    const mine = await heldUuids(alice, a);
    expect(mine).toHaveLength(2);
    // The agent samples every 15 s; a minute is written once it is over (a flush writes it now).
    const first = await until('a sample of the container', async () => {
      await cp.services.containers.flushGpuSamples();
      const m = await metrics(alice, a);
      return m.samples.length > 0 ? m : undefined;
    });
    expect(first).toMatchObject({ simulated: true, range: '1h', step_seconds: 60 });
    expect(first.gpus.map((g) => g.uuid).sort()).toEqual(mine);
    for (const gpu of first.gpus) {
      expect(gpu).toMatchObject({
        model: 'NVIDIA GeForce RTX 4090',
        memory_total_mib: 24564,
        power_limit_w: 450,
      });
      expect(gpu.index).toBe(nodeGpus.find((g) => g.uuid === gpu.uuid)?.gpu_index);
    }
    // The simulated GPUs read a plausible load: warm, drawing power, some memory in use.
    for (const point of first.samples.flatMap((s) => s.gpus)) {
      expect(point).not.toBeNull();
      expect(point?.temperature_c).toBeGreaterThan(25);
      expect(point?.power_w).toBeGreaterThan(0);
      expect(point?.power_w).toBeLessThanOrEqual(450);
      expect(point?.memory_used_mib).toBeGreaterThan(0);
      expect(point?.utilization).toBeLessThanOrEqual(point?.utilization_max ?? -1);
    }

    // Bob's container has its own GPU, and his chart only that one.
    const his = await until('a sample of bob’s container', async () => {
      await cp.services.containers.flushGpuSamples();
      const m = await metrics(bob, b);
      return m.samples.length > 0 ? m : undefined;
    });
    expect(his.gpus.map((g) => g.uuid)).toEqual(await heldUuids(bob, b));
    expect(mine).not.toContain(his.gpus[0]?.uuid);

    // Another user's container, or none signed in: not found, not allowed.
    expect((await bob.request('GET', `/api/containers/${a}/metrics`)).status).toBe(404);
    expect((await new ApiClient(cp.url).request('GET', `/api/containers/${a}/metrics`)).status).toBe(401);
    const bad = await alice.request<{ detail: string }>('GET', `/api/containers/${a}/metrics?range=7d`);
    expect(bad).toMatchObject({ status: 400, body: { detail: '时间范围只能是 1h 或 24h' } });
    // What older callers send still reads.
    expect((await metrics(alice, a, 'minutes=60')).range).toBe('1h');
    expect(await metrics(alice, a, 'minutes=1440')).toMatchObject({ range: '24h', step_seconds: 300 });
    expect((await metrics(alice, a, '')).range).toBe('1h');
  });

  it('splits a node sample by holder per minute: means and maxima, a bucket written twice counted once', async () => {
    const [a0, a1] = await heldUuids(alice, a);
    const [b0] = await heldUuids(bob, b);
    // A minute before both containers existed: no real sample is in it.
    const minute = floorTo(Date.now(), MINUTE) - 20 * MINUTE;
    const at = (bucket: number) => minute + bucket * 15_000 + 1000;
    const reading = (utilization: number, extra = 0): Reading => ({
      utilization,
      memory: 1000 * utilization + extra,
      temperature: 40 + utilization / 10,
      power: 100 + utilization,
    });
    const byBucket = [
      { [a0 as string]: reading(10), [a1 as string]: reading(50), [b0 as string]: reading(80) },
      { [a0 as string]: reading(20), [a1 as string]: reading(50), [b0 as string]: reading(70) },
      { [a0 as string]: reading(60), [a1 as string]: reading(50), [b0 as string]: reading(60) },
    ];
    await record(byBucket.map((values, bucket) => sampleAt(at(bucket), (uuid) => values[uuid])));
    // Bucket 1 again, as a second replica following the node would write it (other numbers, to tell).
    await record([sampleAt(at(1), (uuid) => (uuid === a0 ? reading(90) : byBucket[1]?.[uuid]))]);

    const mine = await metrics(alice, a);
    expect(pointAt(mine, minute, a0 as string)).toEqual({
      utilization: 30,
      utilization_max: 60,
      memory_used_mib: 30_000,
      memory_used_max_mib: 60_000,
      temperature_c: 43,
      power_w: 130,
    });
    expect(pointAt(mine, minute, a1 as string)).toMatchObject({ utilization: 50, utilization_max: 50 });
    expect(pointAt(mine, minute, b0 as string)).toBeUndefined();
    const his = await metrics(bob, b);
    expect(pointAt(his, minute, b0 as string)).toMatchObject({
      utilization: 70,
      utilization_max: 80,
      power_w: 170,
    });
    // GPUs nobody holds are kept by no container: one row per holder for that minute.
    const rows = await cp
      .knex('container_gpu_samples')
      .where('minute', new Date(minute))
      .select('container_id');
    expect(rows.map((r) => r.container_id).sort()).toEqual([a, b].sort());

    // The day view has that span before it is rolled up (from its minutes).
    const day = await metrics(alice, a, 'range=24h');
    expect(day.step_seconds).toBe(300);
    expect(pointAt(day, floorTo(minute, FIVE), a0 as string)).toMatchObject({ utilization_max: 60 });
  });

  it('rolls minutes up into 5-minute spans and keeps at most an hour of minutes and a day of spans', async () => {
    const [gpu] = await heldUuids(bob, b);
    const now = Date.now();
    const top = floorTo(now, MINUTE);
    // 100 minutes of bob's container, one sample each, long before it existed (no real samples).
    const value = (minute: number) => (minute / MINUTE) % 91;
    const minutes = Array.from({ length: 100 }, (_, k) => top - (30 + k) * MINUTE);
    await record(
      minutes.map((m) =>
        sampleAt(m + 2000, (uuid) =>
          uuid === gpu
            ? { utilization: value(m), memory: 100 * value(m), temperature: 50, power: 200 }
            : undefined,
        ),
      ),
    );
    // 5-minute rows from 30 h to 2.5 h ago, as if the container had run that long.
    const old = Array.from({ length: 330 }, (_, k) => floorTo(now, FIVE) - (360 - k) * FIVE);
    await cp
      .knex('container_gpu_samples_5m')
      .insert(
        old.map((t) => ({
          container_id: b,
          bucket: new Date(t),
          gpu_uuids: [gpu],
          utilization: [1],
          utilization_max: [1],
          memory_used: [1],
          memory_used_max: [1],
          temperature: [1],
          power: [1],
          power_limit: [450],
        })),
      )
      .onConflict(['container_id', 'bucket'])
      .ignore();

    // The node monitor's job, as a replica that has not rolled anything up yet runs it.
    const job = new ContainerGpuSamples({
      repo: new ContainerGpuSamplesRepository(cp.knex),
      nodes: cp.services.nodes,
      now: () => now,
    });
    await job.maintain();

    const rows = await rowsOf(b);
    expect(rows.minutes.length).toBeLessThanOrEqual(61);
    expect(Math.min(...rows.minutes)).toBeGreaterThanOrEqual(now - 60 * MINUTE);
    expect(rows.spans.length).toBeLessThanOrEqual(289);
    expect(Math.min(...rows.spans)).toBeGreaterThanOrEqual(now - 24 * 60 * MINUTE);

    // Spans made only of the written minutes carry their means and maxima, in the day view (those
    // of the last hour: older minutes may have been pruned by the running node monitor first).
    const to = floorTo(now - 30_000, FIVE);
    const rolled = Array.from({ length: 13 }, (_, k) => to - (k + 1) * FIVE).filter(
      (t) => t + FIVE <= top - 29 * MINUTE && t >= now - 60 * MINUTE,
    );
    expect(rolled.length).toBeGreaterThanOrEqual(4);
    const day = await metrics(bob, b, 'range=24h');
    expect(day.samples.length).toBeLessThanOrEqual(288);
    for (const t of rolled) {
      expect(rows.spans).toContain(t);
      const values = [0, 1, 2, 3, 4].map((i) => value(t + i * MINUTE));
      const mean = Math.round(values.reduce((x, y) => x + y, 0) / 5);
      expect(pointAt(day, t, gpu as string)).toEqual({
        utilization: mean,
        utilization_max: Math.max(...values),
        memory_used_mib: Math.round((values.reduce((x, y) => x + y, 0) * 100) / 5),
        memory_used_max_mib: 100 * Math.max(...values),
        temperature_c: 50,
        power_w: 200,
      });
    }
    // The hour view: minutes only, one point each, none older than the hour.
    const hour = await metrics(bob, b);
    expect(hour.samples.length).toBeLessThanOrEqual(60);
    for (const s of hour.samples) expect(Date.parse(s.t)).toBeGreaterThanOrEqual(top - 59 * MINUTE);
    expect(pointAt(hour, top - 45 * MINUTE, gpu as string)).toMatchObject({
      utilization: value(top - 45 * MINUTE),
    });
  });

  it('keeps a container’s chart its own after its GPUs go to another container', async () => {
    const [gpu] = await heldUuids(bob, b);
    const stopped = await bob.request<{ status: string }>('POST', `/api/containers/${b}/stop`);
    expect(stopped.body.status).toBe('stopped');
    // Hourly: its GPU went back; a container of alice's takes every free GPU, bob's old one too.
    const c = await purchaseSettled(cp, alice, market, { gpuCount: 6 });
    expect(await heldUuids(alice, c)).toContain(gpu);
    const minute = floorTo(Date.now(), MINUTE) - 10 * MINUTE;
    await record([
      sampleAt(minute + 1000, () => ({ utilization: 77, memory: 7, temperature: 60, power: 300 })),
    ]);
    expect(pointAt(await metrics(alice, c), minute, gpu as string)).toMatchObject({ utilization: 77 });
    const his = await metrics(bob, b);
    expect(his.samples.find((s) => s.t === new Date(minute).toISOString())).toBeUndefined();
    // What bob's container ran before stays in its chart.
    expect(his.gpus.map((g) => g.uuid)).toEqual([gpu]);
    expect(his.samples.length).toBeGreaterThan(0);
  });

  it('removes a container’s samples when it is destroyed, and only its own', async () => {
    expect((await rowsOf(a)).minutes.length).toBeGreaterThan(0);
    expect((await alice.request('DELETE', `/api/containers/${a}`)).status).toBe(200);
    expect(await rowsOf(a)).toEqual({ minutes: [], spans: [] });
    expect((await alice.request('GET', `/api/containers/${a}/metrics`)).status).toBe(404);
    const his = await rowsOf(b);
    expect(his.minutes.length).toBeGreaterThan(0);
    expect(his.spans.length).toBeGreaterThan(0);
  });
});
