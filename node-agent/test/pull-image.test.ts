import type { PullImageProgress__Output, PullImageRequest } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, RUN_LABEL, startTestAgent, type TestAgent, testSpec } from './helpers.js';
import { type LocalRegistry, startLocalRegistry } from './local-registry.js';

const CREDENTIALS = { username: 'puller', password: 'registry-pass' };

function pull(
  t: TestAgent,
  request: PullImageRequest,
): Promise<{ progress: PullImageProgress__Output[]; error?: grpc.ServiceError }> {
  return new Promise((resolve) => {
    const progress: PullImageProgress__Output[] = [];
    const call = t.client.pullImage(request, t.md);
    call.on('data', (p: PullImageProgress__Output) => progress.push(p));
    call.on('end', () => resolve({ progress }));
    call.on('error', (error: grpc.ServiceError) => resolve({ progress, error }));
  });
}

describe('pulling images from a registry', () => {
  let t: TestAgent;
  let registry: LocalRegistry;
  const tag = `v${Date.now().toString(36)}`;
  let ref: string;
  let auth: { serverAddress: string; username: string; password: string };

  beforeAll(async () => {
    t = await startTestAgent();
    // An image with a layer the engine does not have yet, so the pull really downloads.
    const source = `gpucloud/pullsource:${tag}`;
    const builder = await t.docker.createContainer({
      Image: t.image,
      Cmd: ['sh', '-c', 'head -c 2000000 /dev/urandom > /random.bin'],
      Labels: { [RUN_LABEL]: t.runId },
    });
    await builder.start();
    await builder.wait();
    await builder.commit({ repo: 'gpucloud/pullsource', tag });
    await builder.remove({ force: true });
    registry = await startLocalRegistry(t.docker, source, 'gpucloud/pulltest', tag, CREDENTIALS);
    await t.docker.getImage(source).remove({ force: true });
    ref = `${registry.address}/gpucloud/pulltest:${tag}`;
    auth = { serverAddress: registry.address, ...CREDENTIALS };
  });
  afterAll(async () => {
    await t?.close();
    await t?.docker
      .getImage(ref)
      .remove({ force: true })
      .catch(() => undefined);
    await registry?.close();
  });

  it('refuses the pull with wrong credentials', async () => {
    const { error } = await pull(t, { image: ref, auth: { ...auth, password: 'wrong' } });
    expect(error?.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(error?.details).toMatch(/unauthorized|authentication/i);
  });

  it('streams the progress of a pull with credentials and ends with done', async () => {
    const { progress, error } = await pull(t, { image: ref, auth });
    expect(error).toBeUndefined();
    expect(progress.some((p) => p.status === 'Downloading' && Number(p.total) > 0 && p.id !== '')).toBe(true);
    expect(progress.some((p) => p.status === 'Pull complete')).toBe(true);
    const last = progress.at(-1);
    expect(last?.done).toBe(true);
    expect(progress.filter((p) => p.done)).toHaveLength(1);
    await t.docker.getImage(ref).inspect();
  });

  it('pulls a missing image with the request credentials when creating a container', async () => {
    await t.docker.getImage(ref).remove({ force: true });
    const info = await createRequest(t, {
      spec: testSpec(t, { image: ref }),
      start: true,
      registryAuth: auth,
    });
    expect(info.startError).toBe('');
    expect(info.state).toBe('CONTAINER_STATE_RUNNING');
    expect(info.image).toBe(ref);
  });

  it('refuses a malformed image reference', async () => {
    const { error } = await pull(t, { image: 'bad ref; rm -rf /' });
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
  });
});
