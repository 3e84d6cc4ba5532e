import type { Knex } from 'knex';

// Every change of what the market's list shows is announced on the PostgreSQL channel
// market_changed, whichever replica, job or agent report made it: each control plane drops its
// cached list (db/change-cache.ts, REPLY_CHANNELS.market). Row triggers (one notification per
// transaction: PostgreSQL folds equal ones); updates of nodes and node_images only when a column
// the list reads changed (a heartbeat or an image listing that changes nothing announces nothing).
const EVERY_CHANGE = ['cloud_products', 'node_gpus', 'gpu_allocations', 'frameworks', 'framework_versions'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function gpucloud_market_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('market_changed', '');
      return null;
    end $$;
  `);
  for (const table of EVERY_CHANGE) {
    await knex.raw(`
      create trigger ${table}_market_changed
        after insert or update or delete on ${table}
        for each row execute function gpucloud_market_changed();
    `);
  }
  for (const table of ['nodes', 'node_images']) {
    await knex.raw(`
      create trigger ${table}_market_added
        after insert or delete on ${table}
        for each row execute function gpucloud_market_changed();
    `);
  }
  await knex.raw(`
    create trigger nodes_market_changed
      after update on nodes
      for each row
      when (old.status is distinct from new.status
            or old.docker_available is distinct from new.docker_available
            or old.simulated is distinct from new.simulated
            or old.gpu_total is distinct from new.gpu_total
            or old.name is distinct from new.name
            or (old.host_info -> 'gpuProbeError') is distinct from (new.host_info -> 'gpuProbeError'))
      execute function gpucloud_market_changed();
  `);
  await knex.raw(`
    create trigger node_images_market_changed
      after update on node_images
      for each row
      when (old.status is distinct from new.status
            or old.image is distinct from new.image
            or old.node_id is distinct from new.node_id)
      execute function gpucloud_market_changed();
  `);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of EVERY_CHANGE) {
    await knex.raw(`drop trigger if exists ${table}_market_changed on ${table}`);
  }
  for (const table of ['nodes', 'node_images']) {
    await knex.raw(`drop trigger if exists ${table}_market_added on ${table}`);
    await knex.raw(`drop trigger if exists ${table}_market_changed on ${table}`);
  }
  await knex.raw('drop function if exists gpucloud_market_changed()');
}
