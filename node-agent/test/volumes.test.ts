import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Volume__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, grpcError, startTestAgent, type TestAgent, testSpec, unaryCall } from './helpers.js';

describe('volumes', () => {
  let t: TestAgent;
  let outside: string;
  beforeAll(async () => {
    t = await startTestAgent();
    outside = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-outside-'));
    await fs.writeFile(path.join(outside, 'secret.bin'), Buffer.alloc(100_000, 1));
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(outside, { recursive: true, force: true });
  });

  const create = (ownerId: string, name: string) =>
    unaryCall<Volume__Output>((cb) => t.client.createVolume({ ownerId, name }, t.md, cb));
  const usage = (ownerId: string, name: string) =>
    unaryCall<Volume__Output>((cb) => t.client.getVolumeUsage({ ownerId, name }, t.md, cb));
  const remove = (ownerId: string, name: string) =>
    unaryCall<{ deleted: boolean }>((cb) => t.client.deleteVolume({ ownerId, name }, t.md, cb));
  const rename = (ownerId: string, name: string, newName: string) =>
    unaryCall<Volume__Output>((cb) => t.client.renameVolume({ ownerId, name, newName }, t.md, cb));
  const list = (ownerId: string) =>
    unaryCall<{ volumes: Volume__Output[] }>((cb) => t.client.listVolumes({ ownerId }, t.md, cb));

  it('creates a volume under <root>/<owner>/<name> and refuses a second one with that name', async () => {
    const volume = await create('owner1', 'datasets');
    expect(volume).toMatchObject({ ownerId: 'owner1', name: 'datasets', sizeBytes: '0' });
    expect(volume.hostPath).toBe(path.join(await fs.realpath(t.volumeRoot), 'owner1', 'datasets'));
    expect((await fs.stat(volume.hostPath)).isDirectory()).toBe(true);
    expect(Number(volume.createdUnixMs)).toBeGreaterThan(Date.now() - 60_000);
    expect((await grpcError(create('owner1', 'datasets'))).code).toBe(grpc.status.ALREADY_EXISTS);
  });

  it('measures usage by walking the tree without following symlinks', async () => {
    const dir = path.join(t.volumeRoot, 'owner1', 'datasets');
    await fs.mkdir(path.join(dir, 'a', 'b'), { recursive: true });
    await fs.writeFile(path.join(dir, 'top.txt'), 'x'.repeat(1000));
    await fs.writeFile(path.join(dir, 'a', 'b', 'deep.bin'), Buffer.alloc(4096));
    const target = path.join(outside, 'secret.bin');
    await fs.symlink(target, path.join(dir, 'link'));
    await fs.symlink(outside, path.join(dir, 'dirlink'));
    const volume = await usage('owner1', 'datasets');
    expect(Number(volume.sizeBytes)).toBe(1000 + 4096 + target.length + outside.length);
  });

  it('lists the volumes of one owner or of everybody', async () => {
    await create('owner2', 'models');
    expect((await list('owner1')).volumes.map((v) => v.name)).toEqual(['datasets']);
    const all = (await list('')).volumes.map((v) => `${v.ownerId}/${v.name}`);
    expect(all).toEqual(['owner1/datasets', 'owner2/models']);
    expect((await list('nobody')).volumes).toEqual([]);
  });

  it('renames a volume and refuses to overwrite another one', async () => {
    await create('owner2', 'checkpoints');
    const renamed = await rename('owner2', 'models', 'models-v2');
    expect(renamed.name).toBe('models-v2');
    expect((await grpcError(usage('owner2', 'models'))).code).toBe(grpc.status.NOT_FOUND);
    expect((await grpcError(rename('owner2', 'models-v2', 'checkpoints'))).code).toBe(
      grpc.status.ALREADY_EXISTS,
    );
    expect((await grpcError(rename('owner2', 'nothing', 'x'))).code).toBe(grpc.status.NOT_FOUND);
  });

  it('refuses to delete or rename a volume a container mounts', async () => {
    await create('owner3', 'busy');
    const container = await createRequest(t, {
      spec: testSpec(t, { ownerId: 'owner3', mounts: [{ volumeName: 'busy', target: '/data' }] }),
      start: false,
    });
    expect((await grpcError(remove('owner3', 'busy'))).code).toBe(grpc.status.FAILED_PRECONDITION);
    expect((await grpcError(rename('owner3', 'busy', 'idle'))).code).toBe(grpc.status.FAILED_PRECONDITION);
    await unaryCall((cb) =>
      t.client.removeContainer({ containerId: container.containerId, force: true }, t.md, cb),
    );
    expect((await remove('owner3', 'busy')).deleted).toBe(true);
  });

  it('deletes a volume with everything in it, but never what its symlinks point to', async () => {
    expect((await remove('owner1', 'datasets')).deleted).toBe(true);
    expect((await remove('owner1', 'datasets')).deleted).toBe(false);
    expect((await fs.stat(path.join(outside, 'secret.bin'))).size).toBe(100_000);
  });

  it('refuses traversal, absolute and malformed names', async () => {
    const bad = [
      '..',
      '.',
      '../owner2/models-v2',
      '/etc',
      'a/b',
      'x'.repeat(65),
      '',
      'name with space',
      'naïve',
    ];
    for (const name of bad) {
      for (const call of [
        () => create('owner1', name),
        () => usage('owner1', name),
        () => remove('owner1', name),
        () => rename('owner2', 'checkpoints', name),
      ]) {
        expect((await grpcError(call())).code, name).toBe(grpc.status.INVALID_ARGUMENT);
      }
    }
    // A name of this run's own: a stray folder another program left in the parent cannot fail it.
    const escaped = `escape-${process.pid}-${Date.now()}`;
    for (const owner of ['..', '../..', '/', 'a/b', '']) {
      expect((await grpcError(create(owner, escaped))).code, owner).toBe(grpc.status.INVALID_ARGUMENT);
    }
    expect((await fs.readdir(path.dirname(t.volumeRoot))).includes(escaped)).toBe(false);
  });

  it('refuses volumes and owner directories that are symlinks out of the root', async () => {
    await fs.symlink(outside, path.join(t.volumeRoot, 'owner2', 'escape'));
    for (const call of [
      () => usage('owner2', 'escape'),
      () => remove('owner2', 'escape'),
      () => rename('owner2', 'escape', 'fine'),
    ]) {
      expect((await grpcError(call())).code).toBe(grpc.status.FAILED_PRECONDITION);
    }
    await fs.symlink(outside, path.join(t.volumeRoot, 'evilowner'));
    expect((await grpcError(create('evilowner', 'x'))).code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(await fs.readdir(outside)).toEqual(['secret.bin']);
    expect((await list('')).volumes.map((v) => v.name)).not.toContain('escape');
  });
});
