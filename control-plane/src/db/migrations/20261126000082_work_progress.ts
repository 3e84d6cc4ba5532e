import type { Knex } from 'knex';

// Progress where work is long (issue 20):
// - a volume delete answers at once and runs in the background (删除中 n%): the row is kept, marked
//   deleting, until the node has removed the directory; the process running it holds a lease it
//   renews, so a replica takes the delete over when that process dies. A delete that fails puts
//   the volume back with the reason (delete_error) until the next delete.
// - a pull says its phase besides its percentage (下载中 / 解压中): a purchase's on the container,
//   a warm-up's on the node's image.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('volumes', (t) => {
    t.timestamp('deleting_since', { useTz: true });
    t.smallint('delete_progress');
    t.timestamp('delete_lease_until', { useTz: true });
    t.text('delete_error');
  });
  await knex.schema.alterTable('containers', (t) => {
    // downloading | extracting, while pulling.
    t.text('pull_phase');
  });
  await knex.schema.alterTable('node_images', (t) => {
    // downloading | extracting, while pulling.
    t.text('pull_phase');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('volumes', (t) => {
    t.dropColumn('deleting_since');
    t.dropColumn('delete_progress');
    t.dropColumn('delete_lease_until');
    t.dropColumn('delete_error');
  });
  await knex.schema.alterTable('containers', (t) => {
    t.dropColumn('pull_phase');
  });
  await knex.schema.alterTable('node_images', (t) => {
    t.dropColumn('pull_phase');
  });
}
