// SaveImage and RemoveImage over the real gRPC server, against the real Docker engine and a real
// registry (Debian's docker-registry with htpasswd credentials, so the push's auth is real).
import fs from 'node:fs/promises';
import path from 'node:path';
import type {
  PullImageProgress__Output,
  RemoveImageResponse__Output,
  SaveImageProgress__Output,
  SaveImageRequest,
} from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { imageContents } from '../../control-plane/src/modules/images/contract.js';
import { fileEntry, writeTar } from '../src/images/tar.js';
import {
  createRequest,
  execIn,
  freeHostPort,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
  uniqueId,
} from './helpers.js';
import { type LocalRegistry, startLocalRegistry } from './local-registry.js';

const CREDENTIALS = { username: 'saver', password: 'registry-pass' };
const DEBS = path.resolve(import.meta.dirname, '../../.data/test-images/debs');

interface SaveOutcome {
  progress: SaveImageProgress__Output[];
  error?: grpc.ServiceError;
}

function save(t: TestAgent, request: SaveImageRequest): Promise<SaveOutcome> {
  return new Promise((resolve) => {
    const progress: SaveImageProgress__Output[] = [];
    const call = t.client.saveImage(request, t.md);
    call.on('data', (p: SaveImageProgress__Output) => progress.push(p));
    call.on('end', () => resolve({ progress }));
    call.on('error', (error: grpc.ServiceError) => resolve({ progress, error }));
  });
}

function pull(
  t: TestAgent,
  image: string,
  auth: SaveImageRequest['auth'],
): Promise<grpc.ServiceError | undefined> {
  return new Promise((resolve) => {
    const call = t.client.pullImage({ image, auth }, t.md);
    call.on('data', (_p: PullImageProgress__Output) => undefined);
    call.on('end', () => resolve(undefined));
    call.on('error', (error: grpc.ServiceError) => resolve(error));
  });
}

describe('saving a container as an image (SaveImage, RemoveImage)', () => {
  let t: TestAgent;
  let registry: LocalRegistry;
  let auth: { serverAddress: string; username: string; password: string };
  let setupError: unknown;
  const images = inject('testImages');
  const made: string[] = [];

  beforeAll(async () => {
    t = await startTestAgent();
    setupError = await startLocalRegistry(CREDENTIALS).then(
      (r) => {
        registry = r;
        auth = { serverAddress: r.address, ...CREDENTIALS };
      },
      (err: unknown) => err,
    );
  });
  beforeEach(() => {
    if (setupError) throw setupError;
  });
  afterAll(async () => {
    await t?.close();
    for (const ref of made) {
      await t?.docker
        .getImage(ref)
        .remove({ force: true })
        .catch(() => undefined);
    }
    await registry?.close();
  });

  const repository = () => {
    const repo = `${registry.address}/u1/${uniqueId('img').toLowerCase()}`;
    made.push(`${repo}:v1`);
    return repo;
  };

  async function running(image: string, extra: Parameters<typeof testSpec>[1] = {}) {
    return createRequest(t, {
      spec: testSpec(t, { image, ...extra }),
      start: true,
      rootPassword: 'Saved-Pass-1',
    });
  }

  it('saves a running container with its files and packages; it keeps running; the image starts anew', {
    timeout: 180_000,
  }, async () => {
    const sshPort = await freeHostPort();
    const info = await running(images.debian, {
      ports: [{ containerPort: 22, hostPort: sshPort, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
    });
    expect(info.startError).toBe('');
    const container = t.docker.getContainer(info.dockerId);
    await execIn(t, info.dockerId, 'echo saved-file > /root/hello.txt');
    const deb = (await fs.readdir(DEBS)).find((f) => f.startsWith('sensible-utils_'));
    if (!deb) throw new Error(`no sensible-utils .deb in ${DEBS}`);
    await container.putArchive(writeTar([fileEntry(deb, await fs.readFile(path.join(DEBS, deb)))]), {
      path: '/tmp',
    });
    expect(await execIn(t, info.dockerId, `dpkg -i /tmp/${deb} >/dev/null 2>&1; echo $?`)).toBe('0\n');
    const pid = (await execIn(t, info.dockerId, 'sleep 1000 >/dev/null 2>&1 & echo $!')).trim();
    const access = 'cat /etc/shadow /etc/gpucloud/ssh/dropbear_ed25519_host_key | md5sum';
    const accessBefore = await execIn(t, info.dockerId, access);
    const before = await container.inspect();

    const repo = repository();
    const { progress, error } = await save(t, {
      containerId: info.containerId,
      repository: repo,
      tag: 'v1',
      auth,
      baseImage: images.debian,
      description: '我的环境',
    });
    expect(error).toBeUndefined();
    const phases = [...new Set(progress.map((p) => p.phase))];
    expect(phases).toEqual(['committing', 'inspecting', 'pushing', 'done']);
    const percents = progress.map((p) => p.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(progress.some((p) => p.phase === 'pushing' && Number(p.bytesTotal) > 0)).toBe(true);
    const last = progress.at(-1);
    expect(last?.done).toBe(true);
    expect(last?.percent).toBe(100);
    expect(last?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Number(last?.sizeBytes)).toBeGreaterThan(1_000_000);
    const contents = imageContents.parse(JSON.parse(last?.contentsJson ?? ''));
    expect(contents.os?.id).toBe('debian');
    expect(contents.apt_added?.map((p) => p.name)).toContain('sensible-utils');
    expect(contents.apt?.length).toBeGreaterThan(50);
    expect(contents.base.image).toBe(images.debian);
    // Its registry digest where it has one (other suites push it), else its id.
    const baseInfo = await t.docker.getImage(images.debian).inspect();
    expect([baseInfo.Id, ...baseInfo.RepoDigests.map((d) => d.slice(d.indexOf('@') + 1))]).toContain(
      contents.base.digest,
    );
    expect(contents.layers.some((l) => l.added && l.size_bytes > 0)).toBe(true);
    expect(contents.layers.some((l) => !l.added)).toBe(true);
    expect(contents.added_bytes).toBeGreaterThan(0);
    expect(contents.cuda).toBe('12.4.1'); // the image's CUDA_VERSION

    // The container ran on, unrestarted, its processes alive, its access as it was.
    const after = await container.inspect();
    expect(after.State.Running).toBe(true);
    expect(after.State.Paused).toBe(false);
    expect(after.State.StartedAt).toBe(before.State.StartedAt);
    expect(await execIn(t, info.dockerId, `kill -0 ${pid} && echo alive`)).toBe('alive\n');
    expect(await execIn(t, info.dockerId, access)).toBe(accessBefore);

    // The saved configuration is the base image's, without the platform's parts.
    const saved = await t.docker.getImage(`${repo}:v1`).inspect();
    const base = await t.docker.getImage(images.debian).inspect();
    expect(saved.Config.Cmd).toEqual(base.Config.Cmd);
    expect(saved.Config.Entrypoint ?? []).toEqual(base.Config.Entrypoint ?? []);
    expect(saved.Config.Env).toEqual(base.Config.Env);
    expect(saved.Config.Healthcheck).toBeUndefined();
    expect(
      Object.keys(saved.Config.Labels ?? {}).filter(
        (k) => k.startsWith('gpucloud.') && k !== 'gpucloud.recipe',
      ),
    ).toEqual([]);
    expect(saved.Config.Labels?.['org.opencontainers.image.description']).toBe('我的环境');
    expect(JSON.stringify(saved)).not.toMatch(/JUPYTER_TOKEN|GPUCLOUD_|Saved-Pass-1/);
    expect(saved.RepoDigests).toContain(`${repo}@${last?.digest}`);
    // No commit left behind under the agent's temporary name.
    const tags = (await t.docker.listImages()).flatMap((i) => i.RepoTags ?? []);
    expect(tags.filter((tag) => tag.startsWith('gpucloud/saving:'))).toEqual([]);

    // From the registry, into a new container: the file, the package, the base's command, fresh access.
    await t.docker.getImage(`${repo}:v1`).remove();
    const ref = `${repo}@${last?.digest}`;
    expect(await pull(t, ref, auth)).toBeUndefined();
    const copy = await createRequest(t, {
      spec: testSpec(t, {
        image: ref,
        ports: [{ containerPort: 22, hostPort: await freeHostPort(), protocol: 'PROTOCOL_TCP', name: 'ssh' }],
      }),
      start: true,
      rootPassword: 'Other-Pass-2',
    });
    made.push(ref);
    expect(copy.startError).toBe('');
    expect(copy.state).toBe('CONTAINER_STATE_RUNNING');
    expect(await execIn(t, copy.dockerId, 'cat /root/hello.txt')).toBe('saved-file\n');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format, not JavaScript
    expect(await execIn(t, copy.dockerId, "dpkg-query -W -f '${Status}' sensible-utils")).toBe(
      'install ok installed',
    );
    const copied = await t.docker.getContainer(copy.dockerId).inspect();
    expect(copied.Config.Entrypoint).toEqual(['/.gpucloud/init']);
    expect(copied.Config.Cmd).toEqual(base.Config.Cmd);
    // Its own host keys and its own password, not the saved container's.
    expect(await execIn(t, copy.dockerId, access)).not.toBe(accessBefore);
    const shadow = await execIn(t, copy.dockerId, 'grep ^root: /etc/shadow');
    expect(shadow).toMatch(/^root:\$6\$/);
    expect(await execIn(t, info.dockerId, 'grep ^root: /etc/shadow')).not.toBe(shadow);
  });

  it('saves a stopped container, which stays stopped, with its access put back', {
    timeout: 120_000,
  }, async () => {
    const info = await running(images.debian);
    await execIn(t, info.dockerId, 'echo stopped-file > /root/stopped.txt');
    const shadowBefore = await execIn(t, info.dockerId, 'grep ^root: /etc/shadow');
    await t.docker.getContainer(info.dockerId).stop({ t: 1 });
    const repo = repository();
    const { progress, error } = await save(t, {
      containerId: info.containerId,
      repository: repo,
      tag: 'v1',
      auth,
      baseImage: images.debian,
      description: '',
    });
    expect(error).toBeUndefined();
    expect(progress.at(-1)?.done).toBe(true);
    expect((await t.docker.getContainer(info.dockerId).inspect()).State.Running).toBe(false);
    // The saved image has the file, and no password of the container's.
    const probe = await t.docker.createContainer({
      Image: `${repo}:v1`,
      Entrypoint: ['sh', '-c', 'cat /root/stopped.txt; grep ^root: /etc/shadow'],
      Labels: { 'gpucloud-test.run': t.runId },
    });
    await probe.start();
    await probe.wait();
    const out = (await probe.logs({ stdout: true, stderr: true })).toString();
    await probe.remove({ force: true });
    expect(out).toContain('stopped-file');
    expect(out).toMatch(/root:\*:/);
    // The container's own access is as it was.
    await t.docker.getContainer(info.dockerId).start();
    expect(await execIn(t, info.dockerId, 'grep ^root: /etc/shadow')).toBe(shadowBefore);
  });

  // The push of a 400 MB image: a minute or more on a busy machine.
  it('records Python where the image has it', { timeout: 240_000 }, async () => {
    const info = await running(images.jupyter);
    const { progress, error } = await save(t, {
      containerId: info.containerId,
      repository: repository(),
      tag: 'v1',
      auth,
      baseImage: images.jupyter,
      description: '',
    });
    expect(error).toBeUndefined();
    const contents = imageContents.parse(JSON.parse(progress.at(-1)?.contentsJson ?? ''));
    expect(contents.python).toMatch(/^3\.\d+/);
    expect(contents.os?.id).toBe('debian');
    expect(contents.apt_added).toEqual([]);
  });

  it('saves an image without a shell of its own or a libc, with what it lacks as null', async () => {
    const info = await running(images.busybox);
    expect(info.state).toBe('CONTAINER_STATE_RUNNING');
    const { progress, error } = await save(t, {
      containerId: info.containerId,
      repository: repository(),
      tag: 'v1',
      auth,
      baseImage: images.busybox,
      description: '',
    });
    expect(error).toBeUndefined();
    const contents = imageContents.parse(JSON.parse(progress.at(-1)?.contentsJson ?? ''));
    expect(contents).toMatchObject({
      python: null,
      cuda: null,
      cudnn: null,
      pip: null,
      conda: null,
      apt: null,
      apt_added: null,
    });
    expect(contents.layers.length).toBeGreaterThan(0);
  });

  it('fails a push with wrong credentials, leaving the container running and no image', async () => {
    const info = await running(images.debian);
    const repo = repository();
    const { progress, error } = await save(t, {
      containerId: info.containerId,
      repository: repo,
      tag: 'v1',
      auth: { ...auth, password: 'wrong' },
      baseImage: images.debian,
      description: '',
    });
    expect(error?.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(error?.details).toMatch(/保存镜像失败/);
    expect(error?.details).toMatch(/unauthorized|authentication required/i);
    expect(progress.some((p) => p.done)).toBe(false);
    const state = (await t.docker.getContainer(info.dockerId).inspect()).State;
    expect(state.Running).toBe(true);
    expect(state.Paused).toBe(false);
    await expect(t.docker.getImage(`${repo}:v1`).inspect()).rejects.toMatchObject({ statusCode: 404 });
    const tags = (await t.docker.listImages()).flatMap((i) => i.RepoTags ?? []);
    expect(tags.filter((tag) => tag.startsWith('gpucloud/saving:'))).toEqual([]);
  });

  it('refuses a second save of the same container while one is under way', async () => {
    const info = await running(images.debian);
    const request = (repo: string): SaveImageRequest => ({
      containerId: info.containerId,
      repository: repo,
      tag: 'v1',
      auth,
      baseImage: images.debian,
      description: '',
    });
    const [first, second] = await Promise.all([
      save(t, request(repository())),
      save(t, request(repository())),
    ]);
    const errors = [first.error, second.error].filter(Boolean);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(errors[0]?.details).toMatch(/正在保存镜像/);
    expect([first, second].some((o) => o.progress.at(-1)?.done)).toBe(true);
  });

  it('removes an image reference, and says so when there was none', async () => {
    const info = await running(images.busybox);
    const repo = repository();
    const { error } = await save(t, {
      containerId: info.containerId,
      repository: repo,
      tag: 'v1',
      auth,
      baseImage: images.busybox,
      description: '',
    });
    expect(error).toBeUndefined();
    const remove = (image: string) =>
      unaryCall<RemoveImageResponse__Output>((cb) => t.client.removeImage({ image }, t.md, cb));
    expect((await remove(`${repo}:v1`)).removed).toBe(true);
    expect((await remove(`${repo}:v1`)).removed).toBe(false);
  });
});
