import type { Knex } from 'knex';

// Where a node's storage driver cannot limit a container's writable layer, the agent measures it
// now and then and reports it with the node's allowance per container; the owner is warned
// before the layer fills the node's Docker disk (containers/disk-warning.ts).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    // Bytes in the writable layer at the node's last measurement; null = not measured (limited).
    t.bigInteger('writable_layer_bytes');
    // The node's allowance per container (--container-layer-size); null or 0 = none.
    t.bigInteger('writable_layer_allowance_bytes');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    t.dropColumn('writable_layer_bytes');
    t.dropColumn('writable_layer_allowance_bytes');
  });
}
