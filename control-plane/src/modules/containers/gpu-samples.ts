// 监控: each container's GPU samples. A node's sample is split by the GPUs' holders when it comes
// (gpu_allocations: the container holding each GPU then, running or starting), so the chart of a
// container is its own even after its GPUs went to another (an hourly container gives them back
// when it stops). Samples of the fleet's nodes are written together per tick, in one statement
// (as the nodes module writes gpu_samples), into one row per container and minute; the node
// monitor rolls complete 5-minute spans up and prunes: at most an hour of minutes and a day of
// 5-minute rows per container. A destroyed container's samples go with it.
import type { GpuSample__Output } from '@gpucloud/proto';
import type { Knex } from 'knex';
import { TickBatch } from '../nodes/heartbeats.js';
import type { NodeGpuRow } from '../nodes/repository.js';
import { GPU_SAMPLE_BUCKET_MS } from '../nodes/service.js';
import type { ContainerGpuPointReply, ContainerMetricsReply } from './contract.js';
import type {
  ContainerGpuSamplesRepository,
  FiveMinuteRow,
  GpuReading,
  MinuteRow,
} from './gpu-samples-repository.js';
import type { MetricsRange } from './schema.js';

const MINUTE_MS = 60_000;
const FIVE_MINUTES_MS = 5 * MINUTE_MS;
/** Minute rows are kept this long (最近 1 小时). */
export const MINUTES_KEPT_MS = 60 * MINUTE_MS;
/** 5-minute rows are kept this long (最近 24 小时). */
export const FIVE_MINUTES_KEPT_MS = 24 * 60 * MINUTE_MS;
/** A 5-minute span is rolled up once its last minute takes no more samples (they come within a tick). */
const ROLL_UP_GRACE_MS = 30_000;

/** Sample buckets per minute (4 of 15 s): one bit each in a minute row. */
const BUCKETS_PER_MINUTE = Math.max(1, Math.round(MINUTE_MS / GPU_SAMPLE_BUCKET_MS));

interface NodeSample {
  nodeId: number;
  /** The minute (ms) and the bucket bit within it. */
  minute: number;
  bucketBit: number;
  gpus: Omit<GpuReading, 'nodeId' | 'minute' | 'bucketBit'>[];
}

const clamp = (value: number, low: number, high: number) =>
  Math.min(high, Math.max(low, Math.round(Number.isFinite(value) ? value : 0)));
/** The most one reading may be where a minute's sums are smallint (32767) or integer. */
const SMALL = Math.floor(32767 / BUCKETS_PER_MINUTE);
const LARGE = Math.floor((2 ** 31 - 1) / BUCKETS_PER_MINUTE);

/** GPUs the node lists come in index order, those it no longer lists last. */
const listed = (g: { index: number }) => (g.index < 0 ? Number.MAX_SAFE_INTEGER : g.index);

/** The container a read is for (ContainerRecord has these). */
export interface MetricsTarget {
  id: string;
  node_id: number;
  node_simulated: boolean;
}

/** One point of the chart: its start and each GPU's reading with the power limit read then. */
interface Frame {
  t: number;
  gpus: Map<string, { point: ContainerGpuPointReply; powerLimitW: number }>;
}

/** Per GPU: sums over samples, maxima and the last power limit (a 5-minute span's minutes). */
interface Tally {
  samples: number;
  utilization: number;
  utilizationMax: number;
  memory: number;
  memoryMax: number;
  temperature: number;
  power: number;
  powerLimitW: number;
}

function frameOfMinute(row: MinuteRow): Frame {
  const n = Math.max(1, row.samples);
  return {
    t: new Date(row.minute).getTime(),
    gpus: new Map(
      row.gpu_uuids.map((uuid, i) => [
        uuid,
        {
          point: {
            utilization: Math.round((row.utilization_sum[i] ?? 0) / n),
            utilization_max: row.utilization_max[i] ?? 0,
            memory_used_mib: Math.round((row.memory_used_sum[i] ?? 0) / n),
            memory_used_max_mib: row.memory_used_max[i] ?? 0,
            temperature_c: Math.round((row.temperature_sum[i] ?? 0) / n),
            power_w: Math.round((row.power_sum[i] ?? 0) / n),
          },
          powerLimitW: row.power_limit[i] ?? 0,
        },
      ]),
    ),
  };
}

function frameOfFiveMinutes(row: FiveMinuteRow): Frame {
  return {
    t: new Date(row.bucket).getTime(),
    gpus: new Map(
      row.gpu_uuids.map((uuid, i) => [
        uuid,
        {
          point: {
            utilization: row.utilization[i] ?? 0,
            utilization_max: row.utilization_max[i] ?? 0,
            memory_used_mib: row.memory_used[i] ?? 0,
            memory_used_max_mib: row.memory_used_max[i] ?? 0,
            temperature_c: row.temperature[i] ?? 0,
            power_w: row.power[i] ?? 0,
          },
          powerLimitW: row.power_limit[i] ?? 0,
        },
      ]),
    ),
  };
}

/** Minutes not rolled up yet, as 5-minute frames (what the roll-up will write for them). */
function fiveMinuteFramesOf(rows: MinuteRow[]): Frame[] {
  const spans = new Map<number, Map<string, Tally>>();
  for (const row of rows) {
    const t = Math.floor(new Date(row.minute).getTime() / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
    const span = spans.get(t) ?? new Map<string, Tally>();
    spans.set(t, span);
    row.gpu_uuids.forEach((uuid, i) => {
      const tally = span.get(uuid) ?? {
        samples: 0,
        utilization: 0,
        utilizationMax: 0,
        memory: 0,
        memoryMax: 0,
        temperature: 0,
        power: 0,
        powerLimitW: 0,
      };
      tally.samples += row.samples;
      tally.utilization += row.utilization_sum[i] ?? 0;
      tally.utilizationMax = Math.max(tally.utilizationMax, row.utilization_max[i] ?? 0);
      tally.memory += row.memory_used_sum[i] ?? 0;
      tally.memoryMax = Math.max(tally.memoryMax, row.memory_used_max[i] ?? 0);
      tally.temperature += row.temperature_sum[i] ?? 0;
      tally.power += row.power_sum[i] ?? 0;
      tally.powerLimitW = row.power_limit[i] ?? tally.powerLimitW; // rows come oldest first
      span.set(uuid, tally);
    });
  }
  return [...spans].map(([t, span]) => ({
    t,
    gpus: new Map(
      [...span].map(([uuid, s]) => {
        const n = Math.max(1, s.samples);
        return [
          uuid,
          {
            point: {
              utilization: Math.round(s.utilization / n),
              utilization_max: s.utilizationMax,
              memory_used_mib: Math.round(s.memory / n),
              memory_used_max_mib: s.memoryMax,
              temperature_c: Math.round(s.temperature / n),
              power_w: Math.round(s.power / n),
            },
            powerLimitW: s.powerLimitW,
          },
        ];
      }),
    ),
  }));
}

export interface ContainerGpuSamplesDeps {
  repo: ContainerGpuSamplesRepository;
  /** The node's GPU rows (index, model, memory) for the legend. */
  nodes: { gpus(nodeId: number): Promise<NodeGpuRow[]> };
  /** How long a sample waits for the others of its tick (HEARTBEAT_TICK_MS by default). */
  tickMs?: number;
  now?: () => number;
}

export class ContainerGpuSamples {
  private readonly batch: TickBatch<NodeSample>;
  private readonly now: () => number;
  /**
   * Where this replica's roll-ups have reached: only spares it reading minutes again (a 5-minute
   * row is written once whoever rolls it up, so replicas and restarts need no agreement).
   */
  private rolledUntil: number | undefined;
  private maintaining: Promise<void> | undefined;

  constructor(private readonly d: ContainerGpuSamplesDeps) {
    this.now = d.now ?? Date.now;
    this.batch = new TickBatch((items) => this.write(items), d.tickMs);
  }

  /** Settles once written, with the other nodes' samples of its tick. */
  record(nodeId: number, sample: GpuSample__Output): Promise<void> {
    const now = this.now();
    // The agent's clock, never ahead of ours.
    const at = Math.min(Number(sample.timeUnixMs) || now, now);
    const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    const bucket = Math.min(BUCKETS_PER_MINUTE - 1, Math.floor((at - minute) / GPU_SAMPLE_BUCKET_MS));
    return this.batch.add({
      nodeId,
      minute,
      bucketBit: 1 << bucket,
      gpus: sample.gpus
        .filter((g) => g.uuid)
        .map((g) => ({
          gpuUuid: g.uuid,
          utilization: clamp(g.utilizationPercent, 0, 100),
          memoryUsedMib: clamp(Number(g.memoryUsedMib), 0, LARGE),
          temperatureC: clamp(g.temperatureC, -50, Math.min(250, SMALL)),
          powerW: clamp(g.powerDrawW, 0, SMALL),
          powerLimitW: clamp(g.powerLimitW, 0, 32767),
        })),
    });
  }

  /** Writes what waits for its tick now (the node monitor's stop). */
  flush(): Promise<void> {
    return this.batch.flush();
  }

  /**
   * One statement per round; a tick holds one round unless a node sent two samples of one minute
   * in it (a statement may not write one row twice).
   */
  private async write(items: NodeSample[]): Promise<void> {
    const rounds: GpuReading[][] = [];
    const seen = new Map<string, number>();
    for (const item of items) {
      const key = `${item.nodeId}|${item.minute}`;
      const round = seen.get(key) ?? 0;
      seen.set(key, round + 1);
      const readings = rounds[round] ?? [];
      rounds[round] = readings;
      const minute = new Date(item.minute);
      for (const gpu of item.gpus) {
        readings.push({ ...gpu, nodeId: item.nodeId, minute, bucketBit: item.bucketBit });
      }
    }
    for (const readings of rounds) await this.d.repo.addReadings(readings);
  }

  /**
   * Rolls the complete 5-minute spans up and drops rows past their keep (the node monitor's sync,
   * beside the node samples' prune).
   */
  maintain(): Promise<void> {
    // Syncs may overlap (a slow database): one run at a time.
    this.maintaining ??= this.rollUpAndPrune().finally(() => {
      this.maintaining = undefined;
    });
    return this.maintaining;
  }

  private async rollUpAndPrune(): Promise<void> {
    const now = this.now();
    const to = Math.floor((now - ROLL_UP_GRACE_MS) / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
    const from = this.rolledUntil ?? to - MINUTES_KEPT_MS - FIVE_MINUTES_MS;
    if (to > from) {
      await this.d.repo.rollUp(new Date(from), new Date(to));
      this.rolledUntil = to;
    }
    await this.d.repo.prune(new Date(now - MINUTES_KEPT_MS), new Date(now - FIVE_MINUTES_KEPT_MS));
  }

  /** A destroyed container's samples (in the transaction that marks it deleted). */
  removeFor(containerId: string, trx?: Knex.Transaction): Promise<void> {
    return this.d.repo.removeFor(containerId, trx);
  }

  /** The container's chart over the range (see contract.ts containerMetricsReply). */
  async read(container: MetricsTarget, range: MetricsRange): Promise<ContainerMetricsReply> {
    const now = this.now();
    let frames: Frame[];
    let step: number;
    if (range === '1h') {
      step = MINUTE_MS;
      const since = Math.floor(now / MINUTE_MS) * MINUTE_MS - 59 * MINUTE_MS;
      frames = (await this.d.repo.minutes(container.id, new Date(since))).map(frameOfMinute);
    } else {
      step = FIVE_MINUTES_MS;
      const since = Math.floor(now / FIVE_MINUTES_MS) * FIVE_MINUTES_MS - 287 * FIVE_MINUTES_MS;
      const [rolled, minutes] = await Promise.all([
        this.d.repo.fiveMinutes(container.id, new Date(since)),
        this.d.repo.minutes(container.id, new Date(since)),
      ]);
      // The spans not rolled up yet (the last few minutes) from their minutes, as the roll-up will.
      const done = new Set(rolled.map((r) => new Date(r.bucket).getTime()));
      frames = [
        ...rolled.map(frameOfFiveMinutes),
        ...fiveMinuteFramesOf(minutes).filter((f) => !done.has(f.t)),
      ].sort((a, b) => a.t - b.t);
    }

    // Every GPU the container held in the range, as the node lists it now (index order).
    const rows = new Map((await this.d.nodes.gpus(container.node_id)).map((g) => [g.uuid, g]));
    const powerLimit = new Map<string, number>();
    for (const frame of frames) {
      for (const [uuid, g] of frame.gpus) powerLimit.set(uuid, g.powerLimitW);
    }
    const gpus = [...powerLimit.keys()]
      .map((uuid) => {
        const row = rows.get(uuid);
        return {
          uuid,
          index: row?.gpu_index ?? -1,
          model: row?.model ?? '',
          memory_total_mib: row?.memory_total_mib ?? 0,
          power_limit_w: powerLimit.get(uuid) ?? 0,
        };
      })
      .sort((a, b) => listed(a) - listed(b) || a.uuid.localeCompare(b.uuid));
    return {
      simulated: container.node_simulated,
      range,
      step_seconds: step / 1000,
      gpus,
      samples: frames.map((f) => ({
        t: new Date(f.t).toISOString(),
        gpus: gpus.map((g) => f.gpus.get(g.uuid)?.point ?? null),
      })),
    };
  }
}
