// container_gpu_samples (one row per container and minute) and container_gpu_samples_5m (one per
// container and 5 minutes): see the migration 20261126000080_container_gpu_samples. Position i of
// every value array is the GPU gpu_uuids[i] (the UUIDs sorted).
import type { Knex } from 'knex';

/** One GPU's minute (so far) on its node: sums over `samples` samples and maxima (whole numbers). */
export interface GpuMinute {
  nodeId: number;
  gpuUuid: string;
  minute: Date;
  /** The sample buckets in the sums, one bit each (1 << bucket). */
  buckets: number;
  samples: number;
  utilizationSum: number;
  utilizationMax: number;
  memoryUsedSum: number;
  memoryUsedMax: number;
  temperatureSum: number;
  powerSum: number;
  powerLimitW: number;
}

/** A minute of a container: sums over `samples` samples and maxima, per GPU. */
export interface MinuteRow {
  minute: Date;
  gpu_uuids: string[];
  samples: number;
  utilization_sum: number[];
  utilization_max: number[];
  memory_used_sum: number[];
  memory_used_max: number[];
  temperature_sum: number[];
  power_sum: number[];
  power_limit: number[];
}

/** 5 minutes of a container: means and maxima, per GPU. */
export interface FiveMinuteRow {
  bucket: Date;
  gpu_uuids: string[];
  utilization: number[];
  utilization_max: number[];
  memory_used: number[];
  memory_used_max: number[];
  temperature: number[];
  power: number[];
  power_limit: number[];
}

/** The sum arrays of a minute row: added element by element when a bucket joins the minute. */
const SUMS = ['utilization_sum', 'memory_used_sum', 'temperature_sum', 'power_sum'] as const;
const MAXIMA = ['utilization_max', 'memory_used_max'] as const;

/** `s.col` and `excluded.col` combined element by element with `op` (their GPUs are the same). */
const elementwise = (col: string, op: (a: string, b: string) => string) =>
  `ARRAY(SELECT ${op('a', 'b')} FROM unnest(s.${col}, excluded.${col}) WITH ORDINALITY AS u(a, b, i) ORDER BY i)`;

/** A minute's later buckets add to it; a minute whose GPUs changed (a restart) starts again. */
const SAME_GPUS = 's.gpu_uuids = excluded.gpu_uuids';
const MERGE = [
  `buckets = CASE WHEN ${SAME_GPUS} THEN s.buckets | excluded.buckets ELSE excluded.buckets END`,
  `samples = CASE WHEN ${SAME_GPUS} THEN s.samples + excluded.samples ELSE excluded.samples END`,
  ...SUMS.map(
    (c) =>
      `${c} = CASE WHEN ${SAME_GPUS} THEN ${elementwise(c, (a, b) => `${a} + ${b}`)} ELSE excluded.${c} END`,
  ),
  ...MAXIMA.map(
    (c) =>
      `${c} = CASE WHEN ${SAME_GPUS} THEN ${elementwise(c, (a, b) => `greatest(${a}, ${b})`)} ELSE excluded.${c} END`,
  ),
  'power_limit = excluded.power_limit',
].join(',\n       ');

/** 5 minutes as a bucket start, in SQL (date_bin needs PostgreSQL 14). */
const FIVE_MINUTES_OF = (col: string) => `to_timestamp(floor(extract(epoch FROM ${col}) / 300) * 300)`;

/** Owns container_gpu_samples and container_gpu_samples_5m (the containers module's). */
export class ContainerGpuSamplesRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * Adds GPUs' minutes (at most one per GPU and minute) to the minute rows of the containers that
   * hold those GPUs now (gpu_allocations) and run: one statement, whatever the number of nodes.
   * Buckets already in a row (another replica wrote them) are not added again.
   */
  async addMinutes(minutes: GpuMinute[]): Promise<void> {
    if (minutes.length === 0) return;
    const col = <K extends keyof GpuMinute>(key: K) => minutes.map((r) => r[key]);
    await this.knex.raw(
      `WITH v AS (
         SELECT * FROM unnest(?::bigint[], ?::text[], ?::timestamptz[], ?::int[], ?::smallint[], ?::smallint[],
                              ?::smallint[], ?::int[], ?::int[], ?::smallint[], ?::smallint[], ?::smallint[])
           AS v(node_id, gpu_uuid, minute, buckets, samples, utilization_sum, utilization_max, memory_used_sum,
                memory_used_max, temperature_sum, power_sum, power_limit)
       ), held AS (
         SELECT a.container_id, v.*
           FROM v
           JOIN gpu_allocations a ON a.node_id = v.node_id AND a.gpu_uuid = v.gpu_uuid
           JOIN containers c ON c.id = a.container_id
          WHERE c.status IN ('running', 'starting')
       )
       INSERT INTO container_gpu_samples AS s
              (container_id, minute, gpu_uuids, buckets, samples, utilization_sum, utilization_max,
               memory_used_sum, memory_used_max, temperature_sum, power_sum, power_limit)
       SELECT container_id, minute, array_agg(gpu_uuid ORDER BY gpu_uuid), buckets, samples,
              array_agg(utilization_sum ORDER BY gpu_uuid), array_agg(utilization_max ORDER BY gpu_uuid),
              array_agg(memory_used_sum ORDER BY gpu_uuid), array_agg(memory_used_max ORDER BY gpu_uuid),
              array_agg(temperature_sum ORDER BY gpu_uuid), array_agg(power_sum ORDER BY gpu_uuid),
              array_agg(power_limit ORDER BY gpu_uuid)
         FROM held
        GROUP BY container_id, minute, buckets, samples
       ON CONFLICT (container_id, minute) DO UPDATE
          SET ${MERGE}
        WHERE s.buckets & excluded.buckets = 0 OR NOT (${SAME_GPUS})`,
      [
        col('nodeId'),
        col('gpuUuid'),
        col('minute'),
        col('buckets'),
        col('samples'),
        col('utilizationSum'),
        col('utilizationMax'),
        col('memoryUsedSum'),
        col('memoryUsedMax'),
        col('temperatureSum'),
        col('powerSum'),
        col('powerLimitW'),
      ] as unknown as Knex.RawBinding[],
    );
  }

  /**
   * Rolls the minutes in [from, to) up into 5-minute rows (per GPU: the mean over the samples of
   * the minutes it was in, the highest maxima, the last power limit); a 5-minute row already
   * written stays as it is, and a destroyed container gets none. `from` and `to` are 5-minute
   * bounds. Returns the rows written.
   */
  async rollUp(from: Date, to: Date): Promise<number> {
    const result = await this.knex.raw(
      `INSERT INTO container_gpu_samples_5m
              (container_id, bucket, gpu_uuids, utilization, utilization_max, memory_used, memory_used_max,
               temperature, power, power_limit)
       SELECT container_id, bucket, array_agg(gpu_uuid ORDER BY gpu_uuid),
              array_agg(utilization ORDER BY gpu_uuid), array_agg(utilization_max ORDER BY gpu_uuid),
              array_agg(memory_used ORDER BY gpu_uuid), array_agg(memory_used_max ORDER BY gpu_uuid),
              array_agg(temperature ORDER BY gpu_uuid), array_agg(power ORDER BY gpu_uuid),
              array_agg(power_limit ORDER BY gpu_uuid)
         FROM (SELECT m.container_id, ${FIVE_MINUTES_OF('m.minute')} AS bucket, g.gpu_uuid,
                      round(sum(g.u)::numeric / sum(m.samples))::smallint AS utilization,
                      max(g.u_max)::smallint AS utilization_max,
                      round(sum(g.mem)::numeric / sum(m.samples))::int AS memory_used,
                      max(g.mem_max)::int AS memory_used_max,
                      round(sum(g.t)::numeric / sum(m.samples))::smallint AS temperature,
                      round(sum(g.p)::numeric / sum(m.samples))::smallint AS power,
                      (array_agg(g.pl ORDER BY m.minute DESC))[1] AS power_limit
                 FROM container_gpu_samples m
                 -- A minute written while its container was being destroyed is left to the prune.
                 JOIN containers c ON c.id = m.container_id AND c.status <> 'deleted',
                      unnest(m.gpu_uuids, m.utilization_sum, m.utilization_max, m.memory_used_sum,
                             m.memory_used_max, m.temperature_sum, m.power_sum, m.power_limit)
                        AS g(gpu_uuid, u, u_max, mem, mem_max, t, p, pl)
                WHERE m.minute >= ? AND m.minute < ?
                GROUP BY m.container_id, bucket, g.gpu_uuid) per_gpu
        GROUP BY container_id, bucket
       ON CONFLICT (container_id, bucket) DO NOTHING`,
      [from, to],
    );
    return (result as { rowCount: number }).rowCount;
  }

  /** Removes minutes before `minutesBefore` and 5-minute rows before `fiveMinutesBefore`. */
  async prune(minutesBefore: Date, fiveMinutesBefore: Date): Promise<void> {
    await this.knex('container_gpu_samples').where('minute', '<', minutesBefore).delete();
    await this.knex('container_gpu_samples_5m').where('bucket', '<', fiveMinutesBefore).delete();
  }

  /** The container's minutes from `since` on, oldest first. */
  async minutes(containerId: string, since: Date): Promise<MinuteRow[]> {
    return this.knex('container_gpu_samples')
      .where('container_id', containerId)
      .where('minute', '>=', since)
      .orderBy('minute')
      .select(
        'minute',
        'gpu_uuids',
        'samples',
        'utilization_sum',
        'utilization_max',
        'memory_used_sum',
        'memory_used_max',
        'temperature_sum',
        'power_sum',
        'power_limit',
      );
  }

  /** The container's 5-minute rows from `since` on, oldest first. */
  async fiveMinutes(containerId: string, since: Date): Promise<FiveMinuteRow[]> {
    return this.knex('container_gpu_samples_5m')
      .where('container_id', containerId)
      .where('bucket', '>=', since)
      .orderBy('bucket')
      .select(
        'bucket',
        'gpu_uuids',
        'utilization',
        'utilization_max',
        'memory_used',
        'memory_used_max',
        'temperature',
        'power',
        'power_limit',
      );
  }

  /** A destroyed container's samples go with it (its row stays, as 已删除). */
  async removeFor(containerId: string, trx?: Knex.Transaction): Promise<void> {
    const db = trx ?? this.knex;
    await db('container_gpu_samples').where('container_id', containerId).delete();
    await db('container_gpu_samples_5m').where('container_id', containerId).delete();
  }
}
