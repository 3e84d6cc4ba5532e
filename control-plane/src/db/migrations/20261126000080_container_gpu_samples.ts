import type { Knex } from 'knex';

// 监控: the GPU samples of each container, attributed when they arrive to the container that holds
// each GPU then (gpu_allocations), so a container's chart stays its own after its GPUs move on.
// Compact: one row per container and minute with all its GPUs' values as small integer arrays
// (position i of every array is gpu_uuids[i]); a day is kept as 5-minute rows. Bounded: the node
// monitor rolls minutes up into 5-minute rows and keeps at most an hour of minutes and a day of
// 5-minute rows per container (modules/containers/gpu-samples.ts). Removed with the container.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('container_gpu_samples', (t) => {
    t.string('container_id', 32).notNullable().references('containers.id').onDelete('CASCADE');
    t.timestamp('minute', { useTz: true }).notNullable();
    t.specificType('gpu_uuids', 'text[]').notNullable();
    // Which of the minute's sample buckets (15 s each) are in the sums, one bit each: a bucket
    // written twice (two replicas following one node) is counted once.
    t.integer('buckets').notNullable();
    t.smallint('samples').notNullable();
    // Sums over the minute's samples (the mean is sum / samples) and maxima.
    t.specificType('utilization_sum', 'smallint[]').notNullable();
    t.specificType('utilization_max', 'smallint[]').notNullable();
    t.specificType('memory_used_sum', 'integer[]').notNullable();
    t.specificType('memory_used_max', 'integer[]').notNullable();
    t.specificType('temperature_sum', 'smallint[]').notNullable();
    t.specificType('power_sum', 'smallint[]').notNullable();
    // The last power limit read (W): it changes only with nvidia-smi -pl.
    t.specificType('power_limit', 'smallint[]').notNullable();
    t.primary(['container_id', 'minute']);
    // The prune deletes by age across all containers.
    t.index(['minute']);
  });
  await knex.schema.createTable('container_gpu_samples_5m', (t) => {
    t.string('container_id', 32).notNullable().references('containers.id').onDelete('CASCADE');
    t.timestamp('bucket', { useTz: true }).notNullable();
    t.specificType('gpu_uuids', 'text[]').notNullable();
    // Means over the 5 minutes (of the minutes each GPU was sampled) and maxima.
    t.specificType('utilization', 'smallint[]').notNullable();
    t.specificType('utilization_max', 'smallint[]').notNullable();
    t.specificType('memory_used', 'integer[]').notNullable();
    t.specificType('memory_used_max', 'integer[]').notNullable();
    t.specificType('temperature', 'smallint[]').notNullable();
    t.specificType('power', 'smallint[]').notNullable();
    t.specificType('power_limit', 'smallint[]').notNullable();
    t.primary(['container_id', 'bucket']);
    t.index(['bucket']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('container_gpu_samples_5m');
  await knex.schema.dropTableIfExists('container_gpu_samples');
}
