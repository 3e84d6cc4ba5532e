import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The images each node holds or is pulling (warm images): what the agent's ListImages
  // reported last, and the warm-ups an admin started.
  await knex.schema.createTable('node_images', (t) => {
    t.increments('id');
    t.integer('node_id').notNullable().references('id').inTable('nodes').onDelete('CASCADE');
    t.text('image').notNullable();
    // present | pulling | failed
    t.text('status').notNullable();
    t.smallint('progress').notNullable().defaultTo(0);
    t.bigInteger('size_bytes');
    t.text('error');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['node_id', 'image']);
  });
  await knex.schema.alterTable('nodes', (t) => {
    // The filesystem of the node's Docker data root, as ListImages reported it last.
    t.bigInteger('image_disk_total_bytes');
    t.bigInteger('image_disk_free_bytes');
    t.timestamp('images_listed_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('nodes', (t) => {
    t.dropColumn('image_disk_total_bytes');
    t.dropColumn('image_disk_free_bytes');
    t.dropColumn('images_listed_at');
  });
  await knex.schema.dropTable('node_images');
}
