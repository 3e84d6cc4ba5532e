import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // A user's storage volume: a directory on one node (made and measured by its agent), mounted
  // into the user's containers on that node. Containers refer to it by id in their mounts.
  await knex.schema.createTable('volumes', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('node_id').notNullable().references('nodes.id');
    // Shown to the user: the username, a dash and the user's own part.
    t.string('name', 128).notNullable();
    // Where it is mounted in a container unless the mount names another path.
    t.string('path', 255).notNullable();
    t.bigInteger('size_bytes').notNullable().defaultTo(0);
    t.timestamp('measured_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('volumes');
}
