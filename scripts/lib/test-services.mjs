// The real services every package's vitest globalSetup provides: PostgreSQL, a Docker engine
// and the locally built base image. `npm test` starts them once and passes them in through the
// environment; a package run on its own starts what is missing.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureToolbox } from '../../node-agent/toolbox/build.mjs';
import { ensureBaseImage } from './base-image.mjs';
import { ensureDockerEngine, removeStaleTestContainers } from './docker-engine.mjs';
import { ensurePostgres } from './postgres.mjs';

const dataDir = path.resolve(fileURLToPath(new URL('../../.data', import.meta.url)));

/** The container toolbox of the test agents: built by `npm test` once, or here. */
export function testToolboxDir() {
  return process.env.AGENT_TOOLBOX_DIR ?? ensureToolbox({ dest: path.join(dataDir, 'toolbox') });
}

export async function provideTestServices(
  project,
  { postgres, pgName = 'pg-test-local', pgPort = 5444 } = {},
) {
  const cleanups = [];
  if (postgres) {
    // GPUCLOUD_TEST_PG=name:port gives a run its own embedded PostgreSQL, so two suites of one
    // package can run at the same time without wiping each other's database.
    const [ownName, ownPort] = (process.env.GPUCLOUD_TEST_PG ?? '').split(':');
    const pg = await ensurePostgres({
      dataDir,
      name: ownName || pgName,
      port: ownPort ? Number(ownPort) : pgPort,
      database: 'postgres',
      fresh: !process.env.DATABASE_URL,
    });
    cleanups.push(() => pg.stop());
    project.provide('databaseUrl', pg.url);
  }
  const engine = await ensureDockerEngine({ dataDir });
  await removeStaleTestContainers(engine.socketPath);
  const image = process.env.GPUCLOUD_TEST_IMAGE ?? ensureBaseImage({ dockerHost: engine.dockerHost });
  project.provide('dockerHost', engine.dockerHost);
  project.provide('testImage', image);
  project.provide('toolboxDir', testToolboxDir());
  return async () => {
    for (const c of cleanups) await c();
  };
}
