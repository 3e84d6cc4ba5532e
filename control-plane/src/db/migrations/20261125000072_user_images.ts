import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // 我的镜像: a container's filesystem committed on its node and pushed to the platform's registry
  // under the user's own repository. Name and tag are what the user sees (renaming never touches
  // the registry); a deleted image keeps its row (deleted_at) so containers made from it still
  // say where they came from.
  await knex.schema.createTable('user_images', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 32).notNullable();
    t.string('tag', 64).notNullable();
    t.string('description', 200).notNullable().defaultTo('');
    t.string('status', 16).notNullable().defaultTo('saving');
    t.integer('progress').notNullable().defaultTo(0);
    // Why the save failed (Chinese).
    t.text('error');
    t.string('source_container_id', 32);
    t.string('source_container_name', 128).notNullable().defaultTo('');
    // The image the source container was created from.
    t.string('source_image', 255).notNullable().defaultTo('');
    t.bigInteger('node_id').references('nodes.id').onDelete('SET NULL');
    // The registry repository (without host and tag) and the pushed manifest's digest.
    t.string('repository', 255).notNullable().defaultTo('');
    t.string('digest', 128);
    t.bigInteger('size_bytes').notNullable().defaultTo(0);
    // What is inside (ImageContents, images/contract.ts), recorded by the agent at save time.
    t.jsonb('contents');
    // What a container made from it exposes and needs, copied from the source container's
    // framework version at save time (the image keeps working when that version goes).
    t.jsonb('ports').notNullable().defaultTo('{}');
    t.jsonb('extra_driver_capabilities').notNullable().defaultTo('[]');
    // While saving: until when the process saving it holds it (renewed); a replica that dies
    // leaves it to run out, and the save is then marked failed.
    t.timestamp('save_lease_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('deleted_at', { useTz: true });
    t.index(['user_id', 'created_at']);
  });
  await knex.raw(
    'create unique index user_images_name_tag on user_images (user_id, name, tag) where deleted_at is null',
  );
  await knex.raw("create index user_images_saving on user_images (save_lease_until) where status = 'saving'");

  // Per-user overrides of the configured quota (IMAGE_QUOTA_COUNT, IMAGE_QUOTA_GB).
  await knex.schema.createTable('image_quotas', (t) => {
    t.bigInteger('user_id').primary().references('users.id').onDelete('CASCADE');
    t.integer('max_count').notNullable();
    t.bigInteger('max_bytes').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // An image an admin published to the public catalogue: the framework version made for it.
  await knex.schema.createTable('user_image_publications', (t) => {
    t.bigInteger('image_id').notNullable().references('user_images.id').onDelete('CASCADE');
    t.bigInteger('framework_version_id').primary().references('framework_versions.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['image_id']);
  });

  // The saved image a container was made from (its `image` column holds the registry reference).
  await knex.schema.alterTable('containers', (t) => {
    t.bigInteger('custom_image_id').references('user_images.id');
  });
  await knex.raw(
    'create index containers_custom_image on containers (custom_image_id) where custom_image_id is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('containers', (t) => {
    t.dropColumn('custom_image_id');
  });
  await knex.schema.dropTableIfExists('user_image_publications');
  await knex.schema.dropTableIfExists('image_quotas');
  await knex.schema.dropTableIfExists('user_images');
}
