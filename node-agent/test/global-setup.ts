// Finds a Docker engine (or starts a private dockerd under .data/) and builds the local
// busybox+OpenSSH image, then hands both to the tests. Nothing is pulled from the internet.
// DOCKER_HOST and GPUCLOUD_TEST_IMAGE from the environment are used as given.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureBaseImage } from '../../scripts/lib/base-image.mjs';
import { ensureDockerEngine } from '../../scripts/lib/docker-engine.mjs';
import { ensureTestImages } from '../../scripts/lib/test-images.mjs';
import { testToolboxDir } from '../../scripts/lib/test-services.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    dockerHost: string;
    testImage: string;
    toolboxDir: string;
    /** Images like the official catalogue ones (scripts/lib/test-images.mjs), for real-images.test.ts. */
    testImages: { debian: string; busybox: string; server: string; jupyter: string };
  }
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

async function dockerHostForTests(): Promise<string> {
  const fromEnv = process.env.DOCKER_HOST;
  // A tcp:// or ssh:// engine is the caller's choice; ensureDockerEngine only knows sockets.
  if (fromEnv && !fromEnv.startsWith('unix://')) return fromEnv;
  try {
    const engine = await ensureDockerEngine({
      dataDir: path.join(repoRoot, '.data'),
      log: (line) => console.log(line),
    });
    return engine.dockerHost;
  } catch (err) {
    throw new Error(
      `The node-agent tests run against a real Docker engine and none is usable: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const dockerHost = await dockerHostForTests();
  const testImage =
    process.env.GPUCLOUD_TEST_IMAGE || ensureBaseImage({ dockerHost, log: (line) => console.log(line) });
  project.provide('dockerHost', dockerHost);
  project.provide('testImage', testImage);
  project.provide('toolboxDir', testToolboxDir());
  // Cached under .data/test-images (under a second when warm); a failed build fails the run.
  const testImages = await ensureTestImages({
    dockerHost,
    dataDir: path.join(repoRoot, '.data'),
    log: (line) => console.log(line),
  }).catch((err: unknown) => {
    throw new Error(
      `Building the test images (scripts/lib/test-images.mjs) failed: ${err instanceof Error ? err.message : String(err)}`,
    );
  });
  project.provide('testImages', testImages);
}
