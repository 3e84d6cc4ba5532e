import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // What each node's agent runs, from its HostInfo: version (package), build (the bundle's
  // SHA-256 prefix, or "source") and the agent contract's protocol version. NULL until the node
  // monitor reads the node after this migration. A protocol the control plane does not speak
  // keeps the node offline (the node view says why).
  //
  // 升级: upgrading_since is set when an admin starts an upgrade (upgrade_target = the build the
  // node was sent) and cleared when the node reports that build, or when the upgrade times out
  // or fails: upgrade_error then says why (Chinese, shown in the node view).
  await knex.schema.alterTable('nodes', (t) => {
    t.text('agent_version');
    t.text('agent_build');
    t.integer('agent_protocol');
    t.timestamp('upgrading_since', { useTz: true });
    t.text('upgrade_target');
    t.text('upgrade_error');
    t.timestamp('upgrade_error_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('nodes', (t) => {
    t.dropColumn('agent_version');
    t.dropColumn('agent_build');
    t.dropColumn('agent_protocol');
    t.dropColumn('upgrading_since');
    t.dropColumn('upgrade_target');
    t.dropColumn('upgrade_error');
    t.dropColumn('upgrade_error_at');
  });
}
