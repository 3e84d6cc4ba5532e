import type { Knex } from 'knex';

// GPUs are named by their UUID: nvidia-smi's index is not stable across boots and a host that
// loses a GPU renumbers the rest. node_gpus keeps what the agent reports of each GPU (bus id,
// health, MIG, NVLink fabric, topology) and a GPU no longer reported stays with missing_since set;
// gpu_allocations holds GPUs by UUID (today's rows get the UUID their index names now).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('node_gpus', (t) => {
    // PCI bus id (00000000:3B:00.0): for people, and how kernel Xid messages name the GPU.
    t.string('pci_bus_id', 32).notNullable().defaultTo('');
    // Why it must not be rented now (Chinese, from the agent); '' = healthy.
    t.text('health_problem').notNullable().defaultTo('');
    t.boolean('persistence_mode').notNullable().defaultTo(false);
    t.boolean('mig_enabled').notNullable().defaultTo(false);
    // NVLink fabric state on NVSwitch (HGX) hosts: Completed, In Progress, ...; '' = not reported.
    t.string('fabric_state', 32).notNullable().defaultTo('');
    // -1 = unknown.
    t.integer('numa_node').notNullable().defaultTo(-1);
    // UUIDs of the GPUs it reaches over NVLink.
    t.jsonb('nvlink_peers').notNullable().defaultTo('[]');
    // Set when the host stopped reporting it (the row stays: a container may hold it).
    t.timestamp('missing_since', { useTz: true });
    // Set when it became unusable for whoever holds it (missing, failed, MIG, fabric not ready);
    // cleared when it is fine again. Its holders are told once per such moment.
    t.timestamp('problem_since', { useTz: true });
  });
  await knex.schema.alterTable('node_gpus', (t) => {
    t.dropUnique(['node_id', 'gpu_index']);
    t.unique(['node_id', 'uuid']);
    t.index(['node_id', 'gpu_index']);
  });

  await knex.schema.alterTable('gpu_allocations', (t) => {
    t.string('gpu_uuid', 128);
  });
  // Every row is kept: the GPU its index names now, or a placeholder that names no GPU (shown as
  // missing) where the node no longer lists that index.
  await knex.raw(`
    UPDATE gpu_allocations a
       SET gpu_uuid = coalesce(
             (SELECT g.uuid FROM node_gpus g WHERE g.node_id = a.node_id AND g.gpu_index = a.gpu_index),
             'unknown-index-' || a.gpu_index)`);
  await knex.schema.alterTable('gpu_allocations', (t) => {
    t.dropUnique(['node_id', 'gpu_index']);
    t.dropColumn('gpu_index');
    t.string('gpu_uuid', 128).notNullable().alter();
    t.unique(['node_id', 'gpu_uuid']);
  });

  await knex.schema.alterTable('framework_versions', (t) => {
    // NVIDIA driver capabilities the image needs beyond compute,utility (video for ffmpeg, ...).
    t.jsonb('extra_driver_capabilities').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('framework_versions', (t) => {
    t.dropColumn('extra_driver_capabilities');
  });
  await knex.schema.alterTable('gpu_allocations', (t) => {
    t.integer('gpu_index');
  });
  await knex.raw(`
    UPDATE gpu_allocations a
       SET gpu_index = coalesce(
             (SELECT g.gpu_index FROM node_gpus g WHERE g.node_id = a.node_id AND g.uuid = a.gpu_uuid),
             -1 - a.id)`);
  await knex.schema.alterTable('gpu_allocations', (t) => {
    t.dropUnique(['node_id', 'gpu_uuid']);
    t.dropColumn('gpu_uuid');
    t.integer('gpu_index').notNullable().alter();
    t.unique(['node_id', 'gpu_index']);
  });
  // Index-keyed again: GPUs no longer reported go, and of two rows with one index the newer stays.
  await knex.raw('DELETE FROM node_gpus WHERE missing_since IS NOT NULL');
  await knex.raw(`
    DELETE FROM node_gpus g USING node_gpus h
     WHERE g.node_id = h.node_id AND g.gpu_index = h.gpu_index AND g.id < h.id`);
  await knex.schema.alterTable('node_gpus', (t) => {
    t.dropIndex(['node_id', 'gpu_index']);
    t.dropUnique(['node_id', 'uuid']);
    t.unique(['node_id', 'gpu_index']);
    t.dropColumn('pci_bus_id');
    t.dropColumn('health_problem');
    t.dropColumn('persistence_mode');
    t.dropColumn('mig_enabled');
    t.dropColumn('fabric_state');
    t.dropColumn('numa_node');
    t.dropColumn('nvlink_peers');
    t.dropColumn('missing_since');
    t.dropColumn('problem_since');
  });
}
