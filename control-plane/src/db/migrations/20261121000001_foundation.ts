import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.bigIncrements('id');
    t.string('username', 64).notNullable().unique();
    t.string('password_hash', 255).notNullable();
    t.string('email', 255);
    t.string('phone', 32);
    t.string('nickname', 64);
    t.text('ssh_key');
    t.boolean('is_admin').notNullable().defaultTo(false);
    t.boolean('disabled').notNullable().defaultTo(false);
    t.boolean('is_phone_verified').notNullable().defaultTo(false);
    t.boolean('is_email_verified').notNullable().defaultTo(false);
    t.string('wechat_openid', 128).unique();
    t.string('wechat_nickname', 128);
    t.bigInteger('balance_fen').notNullable().defaultTo(0);
    t.timestamps(true, true);
  });

  await knex.schema.createTable('sessions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.index(['user_id']);
  });

  await knex.schema.createTable('nodes', (t) => {
    t.bigIncrements('id');
    t.string('name', 64).notNullable().unique();
    t.string('address', 255).notNullable();
    t.string('token', 255).notNullable();
    t.string('region', 64).notNullable();
    t.string('public_host', 255);
    t.string('status', 16).notNullable().defaultTo('offline');
    t.timestamp('last_heartbeat_at', { useTz: true });
    t.jsonb('host_info');
    t.boolean('docker_available').notNullable().defaultTo(false);
    t.text('docker_error');
    t.boolean('simulated').notNullable().defaultTo(false);
    t.string('gpu_model', 128);
    t.integer('gpu_total').notNullable().defaultTo(0);
    t.integer('port_range_start').notNullable().defaultTo(30000);
    t.integer('port_range_end').notNullable().defaultTo(39999);
    t.timestamps(true, true);
  });

  await knex.schema.createTable('node_gpus', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.integer('gpu_index').notNullable();
    t.string('uuid', 128).notNullable();
    t.string('model', 128).notNullable();
    t.integer('memory_total_mib').notNullable().defaultTo(0);
    t.unique(['node_id', 'gpu_index']);
  });

  await knex.schema.createTable('frameworks', (t) => {
    t.bigIncrements('id');
    t.string('name', 64).notNullable().unique();
    t.jsonb('ports').notNullable().defaultTo('{}');
    t.integer('sort').notNullable().defaultTo(0);
  });

  await knex.schema.createTable('framework_versions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('framework_id').notNullable().references('frameworks.id').onDelete('CASCADE');
    t.string('version', 128).notNullable();
    t.string('image', 255).notNullable();
    t.string('cuda_version', 32).notNullable().defaultTo('');
    t.string('system_type', 16).notNullable().defaultTo('ubuntu');
    t.jsonb('ports').notNullable().defaultTo('{}');
    t.jsonb('mounts').notNullable().defaultTo('[]');
    t.unique(['framework_id', 'version']);
  });

  await knex.schema.createTable('images', (t) => {
    t.bigIncrements('id');
    t.string('name', 128).notNullable();
    t.string('icon', 255).notNullable().defaultTo('');
    t.text('description').notNullable().defaultTo('');
    t.string('category', 32).notNullable().defaultTo('all');
    t.bigInteger('framework_version_id')
      .notNullable()
      .references('framework_versions.id')
      .onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('cloud_products', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.string('name', 128).notNullable();
    t.string('region', 64).notNullable();
    t.string('gpu_type', 128).notNullable();
    t.bigInteger('price_fen').notNullable();
    t.bigInteger('no_gpu_price_fen').notNullable().defaultTo(0);
    t.string('cpu_model', 128).notNullable().defaultTo('');
    t.integer('cpu_cores').notNullable().defaultTo(0);
    t.string('memory', 32).notNullable().defaultTo('32GB');
    t.string('disk_size', 32).notNullable().defaultTo('200GB NVMe');
    t.jsonb('server_config').notNullable().defaultTo('{}');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamps(true, true);
  });

  await knex.schema.createTable('containers', (t) => {
    t.string('id', 32).primary();
    t.bigInteger('user_id').notNullable().references('users.id');
    t.bigInteger('node_id').notNullable().references('nodes.id');
    t.bigInteger('cloud_product_id').references('cloud_products.id').onDelete('SET NULL');
    t.bigInteger('framework_version_id').references('framework_versions.id').onDelete('SET NULL');
    t.string('name', 128).notNullable();
    t.string('image', 255).notNullable();
    t.string('status', 16).notNullable();
    t.string('billing_type', 16).notNullable();
    t.integer('duration').notNullable().defaultTo(1);
    t.bigInteger('price_fen').notNullable();
    t.bigInteger('total_cost_fen').notNullable().defaultTo(0);
    t.integer('gpu_count').notNullable();
    t.string('gpu_type', 128).notNullable().defaultTo('');
    t.text('password_encrypted').notNullable();
    t.jsonb('ports').notNullable().defaultTo('[]');
    t.jsonb('mounts').notNullable().defaultTo('[]');
    t.text('start_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('stopped_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
    t.index(['user_id', 'created_at']);
    t.index(['node_id']);
  });

  // One row per GPU in use: the unique constraint is what makes a double allocation impossible.
  await knex.schema.createTable('gpu_allocations', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id');
    t.integer('gpu_index').notNullable();
    t.string('container_id', 32).notNullable().references('containers.id').onDelete('CASCADE');
    t.unique(['node_id', 'gpu_index']);
    t.index(['container_id']);
  });

  await knex.schema.createTable('port_allocations', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id');
    t.integer('host_port').notNullable();
    t.string('container_id', 32).notNullable().references('containers.id').onDelete('CASCADE');
    t.unique(['node_id', 'host_port']);
    t.index(['container_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'port_allocations',
    'gpu_allocations',
    'containers',
    'cloud_products',
    'images',
    'framework_versions',
    'frameworks',
    'node_gpus',
    'nodes',
    'sessions',
    'users',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
