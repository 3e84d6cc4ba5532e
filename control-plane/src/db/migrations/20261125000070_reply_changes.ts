import type { Knex } from 'knex';

// Every change of what a user's balance or container list shows is announced, whichever replica,
// job or agent report made it, so each control plane drops the replies it keeps
// (db/change-cache.ts):
// - balance_changed: a billing account's balance or alert threshold (statement triggers: one
//   notification per statement with the users' ids, however many rows a settlement writes);
// - container_list_changed: a user's containers or their GPU allocations (the users' ids), a
//   user's name; a node's or a GPU's shown facts ("*": every user).
// The payload is the users' ids separated by commas, "*" where there are more than MAX_IDS.
const MAX_IDS = 500;

/** A statement trigger function notifying `channel` with the distinct `expr` of `source`'s rows. */
function notifyFunction(name: string, channel: string, source: string): string {
  return `
    create function ${name}() returns trigger language plpgsql as $$
    declare
      ids text[];
    begin
      ids := array(select distinct u from (${source}) s(u) where u is not null limit ${MAX_IDS + 1});
      if cardinality(ids) > ${MAX_IDS} then
        perform pg_notify('${channel}', '*');
      elsif cardinality(ids) > 0 then
        perform pg_notify('${channel}', array_to_string(ids, ','));
      end if;
      return null;
    end $$;`;
}

/** Statement triggers on `table` for insert, update (of `columns` when given) and delete. */
async function statementTriggers(
  knex: Knex,
  o: {
    table: string;
    channel: string;
    userOf: (rows: string) => string;
    /** The users of an update's rows (default: every updated row's, before and after). */
    updated?: string;
  },
): Promise<void> {
  const fn = `gpucloud_${o.table}_${o.channel}`;
  await knex.raw(notifyFunction(`${fn}_new`, o.channel, o.userOf('new_rows')));
  await knex.raw(notifyFunction(`${fn}_old`, o.channel, o.userOf('old_rows')));
  await knex.raw(
    notifyFunction(
      `${fn}_both`,
      o.channel,
      o.updated ?? `${o.userOf('new_rows')} union all ${o.userOf('old_rows')}`,
    ),
  );
  await knex.raw(`
    create trigger ${o.table}_${o.channel}_ins after insert on ${o.table}
      referencing new table as new_rows for each statement execute function ${fn}_new()`);
  await knex.raw(`
    create trigger ${o.table}_${o.channel}_upd after update on ${o.table}
      referencing new table as new_rows old table as old_rows for each statement execute function ${fn}_both()`);
  await knex.raw(`
    create trigger ${o.table}_${o.channel}_del after delete on ${o.table}
      referencing old table as old_rows for each statement execute function ${fn}_old()`);
}

async function dropStatementTriggers(knex: Knex, table: string, channel: string): Promise<void> {
  for (const event of ['ins', 'upd', 'del'])
    await knex.raw(`drop trigger if exists ${table}_${channel}_${event} on ${table}`);
  for (const kind of ['new', 'old', 'both'])
    await knex.raw(`drop function if exists gpucloud_${table}_${channel}_${kind}()`);
}

export async function up(knex: Knex): Promise<void> {
  await statementTriggers(knex, {
    table: 'billing_accounts',
    channel: 'balance_changed',
    userOf: (rows) => `select user_id::text from ${rows}`,
    // Not balance_alert_sent_at alone (a low-balance notice being marked sent).
    updated: `select n.user_id::text from new_rows n join old_rows o on o.user_id = n.user_id
               where (n.balance_fen, n.alert_threshold_fen) is distinct from (o.balance_fen, o.alert_threshold_fen)`,
  });
  await statementTriggers(knex, {
    table: 'containers',
    channel: 'container_list_changed',
    userOf: (rows) => `select user_id::text from ${rows}`,
  });
  await statementTriggers(knex, {
    table: 'gpu_allocations',
    channel: 'container_list_changed',
    userOf: (rows) => `select c.user_id::text from ${rows} r join containers c on c.id = r.container_id`,
  });
  await knex.raw(`
    create function gpucloud_container_list_everyone() returns trigger language plpgsql as $$
    begin
      perform pg_notify('container_list_changed', '*');
      return null;
    end $$;`);
  await knex.raw(`
    create function gpucloud_container_list_user() returns trigger language plpgsql as $$
    begin
      perform pg_notify('container_list_changed', new.id::text);
      return null;
    end $$;`);
  await knex.raw(`
    create trigger users_container_list_changed after update on users for each row
      when (old.username is distinct from new.username)
      execute function gpucloud_container_list_user()`);
  // What a container's view shows of its node (nodes/for-containers.ts): a heartbeat changes none.
  await knex.raw(`
    create trigger nodes_container_list_changed after update on nodes for each row
      when (old.name is distinct from new.name
            or old.address is distinct from new.address
            or old.public_host is distinct from new.public_host
            or (old.host_info -> 'publicHost') is distinct from (new.host_info -> 'publicHost')
            or old.simulated is distinct from new.simulated
            or old.status is distinct from new.status
            or old.region is distinct from new.region)
      execute function gpucloud_container_list_everyone()`);
  await knex.raw(`
    create trigger nodes_container_list_removed after delete on nodes
      for each statement execute function gpucloud_container_list_everyone()`);
  await knex.raw(`
    create trigger node_gpus_container_list_added after insert or delete on node_gpus
      for each statement execute function gpucloud_container_list_everyone()`);
  await knex.raw(`
    create trigger node_gpus_container_list_changed after update on node_gpus for each row
      when (old.node_id is distinct from new.node_id
            or old.uuid is distinct from new.uuid
            or old.gpu_index is distinct from new.gpu_index
            or old.pci_bus_id is distinct from new.pci_bus_id
            or old.health_problem is distinct from new.health_problem
            or old.mig_enabled is distinct from new.mig_enabled
            or old.fabric_state is distinct from new.fabric_state
            or old.missing_since is distinct from new.missing_since)
      execute function gpucloud_container_list_everyone()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists users_container_list_changed on users');
  await knex.raw('drop trigger if exists nodes_container_list_changed on nodes');
  await knex.raw('drop trigger if exists nodes_container_list_removed on nodes');
  await knex.raw('drop trigger if exists node_gpus_container_list_added on node_gpus');
  await knex.raw('drop trigger if exists node_gpus_container_list_changed on node_gpus');
  await knex.raw('drop function if exists gpucloud_container_list_everyone()');
  await knex.raw('drop function if exists gpucloud_container_list_user()');
  await dropStatementTriggers(knex, 'gpu_allocations', 'container_list_changed');
  await dropStatementTriggers(knex, 'containers', 'container_list_changed');
  await dropStatementTriggers(knex, 'billing_accounts', 'balance_changed');
}
