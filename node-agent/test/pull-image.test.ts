import type {
  ListImagesResponse__Output,
  PullImageProgress__Output,
  PullImageRequest,
} from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRequest, RUN_LABEL, startTestAgent, type TestAgent, testSpec, unaryCall } from './helpers.js';
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

describe('pulling images from a registry with credentials (Debian docker-registry)', () => {
  let t: TestAgent;
  let registry: LocalRegistry;
  const tag = `v${Date.now().toString(36)}`;
  let ref: string;
  let auth: { serverAddress: string; username: string; password: string };
  let setupError: unknown;

  const setUp = async () => {
    // Throttled so a 2 MB pull lasts about a second: long enough for the inventory test to see
    // it under way even on a busy machine, short enough for the suite.
    registry = await startLocalRegistry({ credentials: CREDENTIALS, throttleBytesPerSecond: 1_500_000 });
    // An image with a layer the engine does not have yet, so the pull really downloads.
    const source = `gpucloud/pullsource:${tag}`;
    const builder = await t.docker.createContainer({
      Image: t.image,
      Cmd: ['sh', '-c', 'head -c 2000000 /dev/urandom > /random.bin'],
      Labels: { [RUN_LABEL]: t.runId },
    });
    await builder.start();
    await builder.wait();
    // A commit takes the builder's command as the image's: give back the base image's, or a
    // container of the pulled image would run `head` and exit instead of the init.
    const base = await t.docker.getImage(t.image).inspect();
    await builder.commit({
      repo: 'gpucloud/pullsource',
      tag,
      changes: `CMD ${JSON.stringify(base.Config.Cmd)}`,
    });
    await builder.remove({ force: true });
    ref = await registry.push(t.docker, source, 'gpucloud/pulltest', tag);
    // Neither name stays in the engine: the agent's pull has to fetch the layers.
    await t.docker.getImage(ref).remove();
    await t.docker.getImage(source).remove();
    auth = { serverAddress: registry.address, ...CREDENTIALS };
  };
  beforeAll(async () => {
    t = await startTestAgent();
    setupError = await setUp().then(
      () => undefined,
      (err: unknown) => err,
    );
  });
  // A missing registry (package not installed) fails every test with the reason; never a skip.
  beforeEach(() => {
    if (setupError) throw setupError;
  });
  afterAll(async () => {
    await t?.close();
    await t?.docker
      .getImage(ref)
      .remove({ force: true })
      .catch(() => undefined);
    await registry?.close();
  });

  it('refuses the pull without credentials, saying why', async () => {
    const { progress, error } = await pull(t, { image: ref });
    expect(error?.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(error?.details).toMatch(/镜像拉取失败/);
    expect(error?.details).toMatch(/no basic auth credentials|unauthorized|authentication required/i);
    expect(progress.some((p) => p.done)).toBe(false);
  });

  it('refuses the pull with wrong credentials, saying why, and leaves no image', async () => {
    const { progress, error } = await pull(t, { image: ref, auth: { ...auth, password: 'wrong' } });
    expect(error?.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(error?.details).toMatch(/镜像拉取失败/);
    expect(error?.details).toMatch(/unauthorized|authentication required/i);
    expect(progress.some((p) => p.done)).toBe(false);
    await expect(t.docker.getImage(ref).inspect()).rejects.toMatchObject({ statusCode: 404 });
  });

  it('streams the progress of a pull with credentials and ends with done', async () => {
    const { progress, error } = await pull(t, { image: ref, auth });
    expect(error).toBeUndefined();
    expect(progress.some((p) => p.status === 'Downloading' && Number(p.total) > 0 && p.id !== '')).toBe(true);
    expect(progress.some((p) => p.status === 'Pull complete')).toBe(true);
    const last = progress.at(-1);
    expect(last?.done).toBe(true);
    expect(progress.filter((p) => p.done)).toHaveLength(1);
    const image = await t.docker.getImage(ref).inspect();
    expect(image.RepoTags).toContain(ref);
    // It runs the base image's init (a container of it stays up), not the builder's command.
    expect(image.Config.Cmd).toEqual((await t.docker.getImage(t.image).inspect()).Config.Cmd);
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

  it('pulls an image once when two requests for it come together, and both see it done', async () => {
    await t.docker
      .getImage(ref)
      .remove({ force: true })
      .catch(() => undefined);
    const pulls: string[] = [];
    const events = await t.docker.getEvents({ filters: { type: ['image'], event: ['pull'] } });
    events.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        const event = JSON.parse(line) as { id?: string };
        if (event.id === ref) pulls.push(event.id);
      }
    });
    try {
      const [a, b] = await Promise.all([pull(t, { image: ref, auth }), pull(t, { image: ref, auth })]);
      expect(a.error).toBeUndefined();
      expect(b.error).toBeUndefined();
      expect(a.progress.at(-1)?.done).toBe(true);
      expect(b.progress.at(-1)?.done).toBe(true);
      // Docker reports each pull it ran; a moment for the event to arrive.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(pulls).toEqual([ref]);
    } finally {
      (events as unknown as { destroy(): void }).destroy();
    }
  });

  it('lists what the node holds: the pulled image with its size, one being pulled, and the disk', async () => {
    const list = () => unaryCall<ListImagesResponse__Output>((cb) => t.client.listImages({}, t.md, cb));
    const held = await list();
    const image = held.images.find((i) => i.tags.includes(ref));
    expect(image?.imageId).toMatch(/^sha256:/);
    expect(Number(image?.sizeBytes)).toBeGreaterThan(2_000_000); // the random layer at least
    expect(held.images.every((i) => i.tags.length > 0)).toBe(true);
    expect(Number(held.diskTotalBytes)).toBeGreaterThan(Number(held.diskFreeBytes));
    expect(Number(held.diskFreeBytes)).toBeGreaterThan(0);
    expect(held.pulling).toEqual([]);

    await t.docker.getImage(ref).remove({ force: true });
    const pulling = pull(t, { image: ref, auth });
    await expect.poll(async () => (await list()).pulling, { timeout: 10_000, interval: 20 }).toEqual([ref]);
    expect((await pulling).error).toBeUndefined();
    const after = await list();
    expect(after.pulling).toEqual([]);
    expect(after.images.some((i) => i.tags.includes(ref))).toBe(true);
  });

  it('refuses a malformed image reference', async () => {
    const { error } = await pull(t, { image: 'bad ref; rm -rf /' });
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
  });
});
