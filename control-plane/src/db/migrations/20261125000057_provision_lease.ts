import type { Knex } from 'knex';

// A purchase the node is provisioning belongs to the control plane process that answered it,
// which renews a lease on the row while it works. A process that dies (kill -9, a crash, a
// deploy) leaves the lease to run out; any replica then takes the purchase over and ends it: as
// the node's container where the node made one, else failed with the charge given back
// (containers/provisioning-recovery.ts). The purchase's order is kept on the row for that refund.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    t.timestamp('provision_lease_until', { useTz: true });
    t.integer('purchase_order_id');
  });
  // Rows provisioning now belonged to processes started before this lease existed: let any
  // replica take them over.
  await knex('containers')
    .whereIn('status', ['creating', 'pulling'])
    .update({ provision_lease_until: knex.fn.now() });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    t.dropColumn('provision_lease_until');
    t.dropColumn('purchase_order_id');
  });
}
