import type { Knex } from 'knex';

// Every change of a container's status or pull progress is announced on the PostgreSQL channel
// container_changed (payload: the container's id), whichever replica or job made it: the
// status API answers a waiting console at once (modules/containers/changes.ts).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function gpucloud_container_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('container_changed', new.id);
      return null;
    end $$;
  `);
  await knex.raw(`
    create trigger containers_changed
      after update on containers
      for each row
      when (old.status is distinct from new.status or old.pull_progress is distinct from new.pull_progress)
      execute function gpucloud_container_changed();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists containers_changed on containers');
  await knex.raw('drop function if exists gpucloud_container_changed()');
}
