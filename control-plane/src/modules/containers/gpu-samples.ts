// 监控: each container's GPU samples. A node's samples are summed per minute in memory (per GPU:
// sums, maxima, the sample buckets in them) and written once the minute is over, all nodes in one
// statement, split by the GPUs' holders then (gpu_allocations: the container holding each GPU,
// running or starting), so the chart of a container is its own even after its GPUs went to
// another (an hourly container gives them back when it stops). One row per container and minute;
// the node monitor rolls complete 5-minute spans up and prunes: at most an hour of minutes and a
// day of 5-minute rows per container. A destroyed container's samples go with it.
//
// A write per minute instead of one per heartbeat tick: on a fleet of a thousand nodes the
// per-tick upserts kept PostgreSQL busy enough to slow every other query (the market's list).
// What it costs: the minute a container gives its GPUs back in is not its own (its holder when
// the minute is written gets it, or nobody), and a chart shows minutes once they are over.
import type { GpuSample__Output } from '@gpucloud/proto';
import type { Knex } from 'knex';
import type { NodeGpuRow } from '../nodes/repository.js';
import { GPU_SAMPLE_BUCKET_MS } from '../nodes/service.js';
import type { ContainerGpuPointReply, ContainerMetricsReply } from './contract.js';
import type {
  ContainerGpuSamplesRepository,
  FiveMinuteRow,
  GpuMinute,
  MinuteRow,
} from './gpu-samples-repository.js';
import type { MetricsRange } from './schema.js';

const MINUTE_MS = 60_000;
const FIVE_MINUTES_MS = 5 * MINUTE_MS;
/** Minute rows are kept this long (最近 1 小时). */
export const MINUTES_KEPT_MS = 60 * MINUTE_MS;
/** 5-minute rows are kept this long (最近 24 小时). */
export const FIVE_MINUTES_KEPT_MS = 24 * 60 * MINUTE_MS;
/** A minute is written this long after it ends (samples in transit, agents' clocks a little behind). */
const WRITE_GRACE_MS = 5_000;
/** A 5-minute span is rolled up once its last minute is written. */
const ROLL_UP_GRACE_MS = 30_000;

/** Sample buckets per minute (4 of 15 s): one bit each in a minute row. */
const BUCKETS_PER_MINUTE = Math.max(1, Math.round(MINUTE_MS / GPU_SAMPLE_BUCKET_MS));

/** A node's samples of one minute so far, per GPU (UUIDs sorted; position i of each array is uuids[i]). */
interface NodeMinute {
  nodeId: number;
  minute: number;
  /** The sample buckets in the sums, one bit each: a bucket sampled twice is counted once. */
  buckets: number;
  samples: number;
  uuids: string[];
  utilizationSum: number[];
  utilizationMax: number[];
  memorySum: number[];
  memoryMax: number[];
  temperatureSum: number[];
  powerSum: number[];
  powerLimit: number[];
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
  /** Where a write that failed is told (its minutes are dropped: the next ones are written). */
  log?: (message: string, err?: unknown) => void;
  now?: () => number;
}

export class ContainerGpuSamples {
  private readonly now: () => number;
  /** The minutes being summed, by node and minute. */
  private pending = new Map<string, NodeMinute>();
  private timer: NodeJS.Timeout | undefined;
  /** Writes one after another (a flush waits for the one under way). */
  private writing: Promise<void> = Promise.resolve();
  /**
   * Where this replica's roll-ups have reached: only spares it reading minutes again (a 5-minute
   * row is written once whoever rolls it up, so replicas and restarts need no agreement).
   */
  private rolledUntil: number | undefined;
  private maintaining: Promise<void> | undefined;

  constructor(private readonly d: ContainerGpuSamplesDeps) {
    this.now = d.now ?? Date.now;
  }

  /** Adds a node's sample to its minute (written once the minute is over, or at a flush). */
  record(nodeId: number, sample: GpuSample__Output): void {
    const now = this.now();
    // The agent's clock, never ahead of ours.
    const at = Math.min(Number(sample.timeUnixMs) || now, now);
    const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    const bucket = Math.min(BUCKETS_PER_MINUTE - 1, Math.floor((at - minute) / GPU_SAMPLE_BUCKET_MS));
    const bit = 1 << bucket;
    const gpus = sample.gpus
      .filter((g) => g.uuid)
      .sort((x, y) => (x.uuid < y.uuid ? -1 : x.uuid > y.uuid ? 1 : 0));
    if (gpus.length === 0) return;
    const key = `${nodeId}|${minute}`;
    let m = this.pending.get(key);
    const sameGpus = m?.uuids.length === gpus.length && gpus.every((g, i) => g.uuid === m?.uuids[i]);
    if (m && sameGpus && m.buckets & bit) return; // that bucket is in already
    if (!m || !sameGpus) {
      // A minute whose GPUs changed (the agent restarted, a GPU went) starts again, as in the table.
      const zeros = () => gpus.map(() => 0);
      m = {
        nodeId,
        minute,
        buckets: 0,
        samples: 0,
        uuids: gpus.map((g) => g.uuid),
        utilizationSum: zeros(),
        utilizationMax: zeros(),
        memorySum: zeros(),
        memoryMax: zeros(),
        temperatureSum: zeros(),
        powerSum: zeros(),
        powerLimit: zeros(),
      };
      this.pending.set(key, m);
    }
    const t = m;
    t.buckets |= bit;
    t.samples++;
    gpus.forEach((g, i) => {
      const utilization = clamp(g.utilizationPercent, 0, 100);
      const memory = clamp(Number(g.memoryUsedMib), 0, LARGE);
      t.utilizationSum[i] = (t.utilizationSum[i] ?? 0) + utilization;
      t.utilizationMax[i] = Math.max(t.utilizationMax[i] ?? 0, utilization);
      t.memorySum[i] = (t.memorySum[i] ?? 0) + memory;
      t.memoryMax[i] = Math.max(t.memoryMax[i] ?? 0, memory);
      t.temperatureSum[i] = (t.temperatureSum[i] ?? 0) + clamp(g.temperatureC, -50, Math.min(250, SMALL));
      t.powerSum[i] = (t.powerSum[i] ?? 0) + clamp(g.powerDrawW, 0, SMALL);
      t.powerLimit[i] = clamp(g.powerLimitW, 0, 32767);
    });
    this.schedule();
  }

  /** Writes every minute summed so far, the current one too (the node monitor's stop). */
  flush(): Promise<void> {
    return this.write(() => true);
  }

  /** A write at the end of the next minute (plus the grace), while anything waits. */
  private schedule(): void {
    if (this.timer || this.pending.size === 0) return;
    const now = Date.now();
    const at = Math.floor(now / MINUTE_MS) * MINUTE_MS + MINUTE_MS + WRITE_GRACE_MS;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const over = Math.floor((this.now() - WRITE_GRACE_MS) / MINUTE_MS) * MINUTE_MS;
      // A failed write was logged (write): the next minutes are written all the same.
      this.write((m) => m.minute < over)
        .catch(() => undefined)
        .finally(() => this.schedule());
    }, at - now);
    this.timer.unref();
  }

  /** Writes the minutes `due` picks, all nodes in one statement, and forgets them. */
  private write(due: (m: NodeMinute) => boolean): Promise<void> {
    const minutes: NodeMinute[] = [];
    for (const [key, m] of this.pending) {
      if (!due(m)) continue;
      minutes.push(m);
      this.pending.delete(key);
    }
    const rows: GpuMinute[] = minutes.flatMap((m) =>
      m.uuids.map((gpuUuid, i) => ({
        nodeId: m.nodeId,
        gpuUuid,
        minute: new Date(m.minute),
        buckets: m.buckets,
        samples: m.samples,
        utilizationSum: m.utilizationSum[i] ?? 0,
        utilizationMax: m.utilizationMax[i] ?? 0,
        memoryUsedSum: m.memorySum[i] ?? 0,
        memoryUsedMax: m.memoryMax[i] ?? 0,
        temperatureSum: m.temperatureSum[i] ?? 0,
        powerSum: m.powerSum[i] ?? 0,
        powerLimitW: m.powerLimit[i] ?? 0,
      })),
    );
    if (rows.length === 0) return this.writing;
    const run = this.writing.then(() => this.d.repo.addMinutes(rows));
    this.writing = run.catch((err: unknown) => {
      this.d.log?.(`GPU samples of ${minutes.length} node minutes not written`, err);
    });
    return run;
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
