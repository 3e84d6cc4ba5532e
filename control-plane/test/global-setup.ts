import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureDockerEngine } from '../../scripts/lib/docker-engine.mjs';
import { ensureBaseImage } from '../../scripts/lib/base-image.mjs';
import { ensurePostgres } from '../../scripts/lib/postgres.mjs';

const dataDir = path.resolve(fileURLToPath(new URL('../../.data', import.meta.url)));

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    dockerHost: string;
    testImage: string;
  }
}

/** Real PostgreSQL and a real Docker engine for every control-plane test; nothing is skipped. */
export default async function setup(project: TestProject) {
  const pg = await ensurePostgres({ dataDir, name: 'pg-test-control-plane', port: 5441, database: 'postgres', fresh: !process.env.DATABASE_URL });
  const engine = await ensureDockerEngine({ dataDir });
  const image = process.env.GPUCLOUD_TEST_IMAGE ?? ensureBaseImage({ dockerHost: engine.dockerHost });
  project.provide('databaseUrl', pg.url);
  project.provide('dockerHost', engine.dockerHost);
  project.provide('testImage', image);
  return async () => {
    await pg.stop();
  };
}
