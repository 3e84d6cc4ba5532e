import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DeleteVolumeProgress__Output, Volume__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type VolumeDeleteProgress, VolumeStore } from '../src/volumes/volume-store.js';
import { createRequest, startTestAgent, type TestAgent, testSpec, unaryCall } from './helpers.js';

/** Fills `dir` with `dirs` directories of `files` files each (`bytes` bytes apiece), one nested deeper. */
async function fillTree(dir: string, dirs: number, files: number, bytes: number): Promise<void> {
  const content = Buffer.alloc(bytes, 7);
  for (let d = 0; d < dirs; d++) {
    const sub = path.join(dir, `d${d}`, 'inner');
    await fs.mkdir(sub, { recursive: true });
    await Promise.all(
      Array.from({ length: files }, (_, f) => fs.writeFile(path.join(sub, `f${f}.bin`), content)),
    );
  }
}

/** chattr +i / -i: a file that not even root can remove (the failure a real node can meet). */
const immutable = (file: string, on: boolean) => execFileSync('chattr', [on ? '+i' : '-i', file]);

interface Streamed {
  messages: DeleteVolumeProgress__Output[];
  error?: grpc.ServiceError;
}

describe('DeleteVolumeWithProgress on a real directory tree', () => {
  let t: TestAgent;
  let outside: string;
  beforeAll(async () => {
    t = await startTestAgent();
    outside = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-outside-'));
    await fs.writeFile(path.join(outside, 'keep.bin'), Buffer.alloc(5000, 1));
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(outside, { recursive: true, force: true });
  });

  const create = (ownerId: string, name: string) =>
    unaryCall<Volume__Output>((cb) => t.client.createVolume({ ownerId, name }, t.md, cb));
  const removeUnary = (ownerId: string, name: string) =>
    unaryCall<{ deleted: boolean }>((cb) => t.client.deleteVolume({ ownerId, name }, t.md, cb));
  const open = (ownerId: string, name: string) => t.client.deleteVolumeWithProgress({ ownerId, name }, t.md);
  const follow = (call: grpc.ClientReadableStream<DeleteVolumeProgress__Output>): Promise<Streamed> =>
    new Promise((resolve) => {
      const messages: DeleteVolumeProgress__Output[] = [];
      call.on('data', (m: DeleteVolumeProgress__Output) => messages.push(m));
      call.on('end', () => resolve({ messages }));
      call.on('error', (error: grpc.ServiceError) => resolve({ messages, error }));
    });

  it('measures, then deletes with counts that only grow, and ends with done; links are not followed', async () => {
    const volume = await create('owner1', 'big');
    await fillTree(volume.hostPath, 20, 1000, 100);
    await fs.symlink(path.join(outside, 'keep.bin'), path.join(volume.hostPath, 'link'));
    // 20 × (d, inner, 1000 files) + the link.
    const entries = 20 * 1002 + 1;
    const bytes = 20 * 1000 * 100 + path.join(outside, 'keep.bin').length;

    const { messages, error } = await follow(open('owner1', 'big'));
    expect(error).toBeUndefined();
    const last = messages.at(-1);
    expect(last).toMatchObject({ phase: 'done', done: true, deleted: true });
    expect(messages.filter((m) => m.done)).toHaveLength(1);
    const phases = messages.map((m) => m.phase);
    // measuring… then deleting… then done, never back.
    expect(phases.join(' ')).toMatch(/^(measuring )*(deleting )+done$/);
    const deleting = messages.filter((m) => m.phase === 'deleting');
    for (const m of deleting) {
      expect(Number(m.filesTotal)).toBe(entries);
      expect(Number(m.bytesTotal)).toBe(bytes);
    }
    const done = deleting.map((m) => Number(m.filesDone));
    expect([...done].sort((a, b) => a - b)).toEqual(done);
    expect(deleting.at(-1)).toMatchObject({ filesDone: String(entries), bytesDone: String(bytes) });
    await expect(fs.stat(volume.hostPath)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await fs.stat(path.join(outside, 'keep.bin'))).size).toBe(5000);

    // Idempotent: nothing there answers done at once, deleted false.
    expect((await follow(open('owner1', 'big'))).messages).toEqual([
      expect.objectContaining({ phase: 'done', done: true, deleted: false }),
    ]);
  });

  it('goes on when the caller leaves, to the end, with nobody asking again', async () => {
    const volume = await create('owner1', 'left');
    await fillTree(volume.hostPath, 20, 1000, 10);
    const first = open('owner1', 'left');
    first.on('error', () => undefined); // CANCELLED, below
    const heard = await new Promise<DeleteVolumeProgress__Output>((resolve) => first.once('data', resolve));
    expect(heard.done).toBe(false);
    first.cancel();
    const deadline = Date.now() + 60_000;
    while (
      await fs.stat(volume.hostPath).then(
        () => true,
        () => false,
      )
    ) {
      if (Date.now() > deadline) throw new Error('the volume was not deleted after its caller left');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Asked again afterwards (a control plane that restarted): done, nothing left to delete.
    expect((await follow(open('owner1', 'left'))).messages).toEqual([
      expect.objectContaining({ done: true, deleted: false }),
    ]);
    expect((await removeUnary('owner1', 'left')).deleted).toBe(false);
  });

  it('fails with the file it could not remove, keeps the rest of the volume, and a retry finishes', async () => {
    const volume = await create('owner2', 'stuck');
    await fillTree(volume.hostPath, 2, 50, 10);
    const stuck = path.join(volume.hostPath, 'd1', 'inner', 'f3.bin');
    immutable(stuck, true);
    try {
      const { messages, error } = await follow(open('owner2', 'stuck'));
      expect(error?.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(error?.details).toContain('d1/inner/f3.bin');
      expect(messages.some((m) => m.done)).toBe(false);
      expect((await fs.stat(stuck)).isFile()).toBe(true);
    } finally {
      immutable(stuck, false);
    }
    const retry = await follow(open('owner2', 'stuck'));
    expect(retry.messages.at(-1)).toMatchObject({ done: true, deleted: true });
    await expect(fs.stat(volume.hostPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses, as DeleteVolume does, while a container mounts the volume', async () => {
    await create('owner3', 'busy');
    const container = await createRequest(t, {
      spec: testSpec(t, { ownerId: 'owner3', mounts: [{ volumeName: 'busy', target: '/data' }] }),
      start: false,
    });
    const refused = await follow(open('owner3', 'busy'));
    expect(refused.error?.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(refused.error?.details).toContain('正被容器');
    await unaryCall((cb) =>
      t.client.removeContainer({ containerId: container.containerId, force: true }, t.md, cb),
    );
    expect((await follow(open('owner3', 'busy'))).messages.at(-1)).toMatchObject({ deleted: true });
    expect((await follow(open('bad/owner', 'x'))).error?.code).toBe(grpc.status.INVALID_ARGUMENT);
  });
});

describe('VolumeStore.delete progress, told on every step', () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-volstore-'));
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('counts every entry up while measuring, then down the tree one by one until all is gone', async () => {
    const store = new VolumeStore(root, undefined, 0);
    await store.create('u1', 'v');
    const dir = path.join(await fs.realpath(root), 'u1', 'v');
    await fillTree(dir, 3, 40, 25);
    const heard: VolumeDeleteProgress[] = [];
    expect(await store.delete('u1', 'v', { onProgress: (p) => heard.push(p) })).toBe(true);
    const measuring = heard.filter((p) => p.phase === 'measuring');
    const deleting = heard.filter((p) => p.phase === 'deleting');
    expect(heard.indexOf(deleting[0] as VolumeDeleteProgress)).toBe(measuring.length);
    expect(measuring.at(-1)).toMatchObject({ entriesTotal: 3 * 42, bytesTotal: 3 * 40 * 25 });
    // Batches of files, then each directory on its own: many steps, each one further.
    expect(deleting.length).toBeGreaterThan(6);
    for (let i = 1; i < deleting.length; i++) {
      expect((deleting[i] as VolumeDeleteProgress).entriesDone).toBeGreaterThan(
        (deleting[i - 1] as VolumeDeleteProgress).entriesDone,
      );
    }
    expect(deleting.at(-1)).toMatchObject({ entriesDone: 126, entriesTotal: 126, bytesDone: 3000 });
    expect(await store.delete('u1', 'v')).toBe(false);
  });

  it('a second delete of the volume follows the first: it hears where the first is, never a measuring of its own', async () => {
    const store = new VolumeStore(root, undefined, 0);
    await store.create('u3', 'j');
    await fillTree(path.join(await fs.realpath(root), 'u3', 'j'), 4, 200, 5);
    const firstHeard: VolumeDeleteProgress[] = [];
    const secondHeard: VolumeDeleteProgress[] = [];
    let second: Promise<boolean> | undefined;
    const first = store.delete('u3', 'j', {
      onProgress: (p) => {
        firstHeard.push(p);
        if (!second && p.phase === 'deleting') {
          second = store.delete('u3', 'j', { onProgress: (q) => secondHeard.push(q) });
        }
      },
    });
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(secondHeard[0]).toEqual(firstHeard.find((p) => p.phase === 'deleting'));
    expect(secondHeard.some((p) => p.phase === 'measuring')).toBe(false);
    expect(secondHeard.at(-1)).toEqual(firstHeard.at(-1));
    expect(secondHeard.at(-1)).toMatchObject({ entriesDone: 4 * 202, entriesTotal: 4 * 202 });
  });

  it('refuses a mount or a rename of a volume while it is being deleted', async () => {
    const store = new VolumeStore(root);
    await store.create('u2', 'w');
    await fillTree(path.join(await fs.realpath(root), 'u2', 'w'), 10, 500, 1);
    let started!: () => void;
    const underWay = new Promise<void>((resolve) => {
      started = resolve;
    });
    const deleting = store.delete('u2', 'w', { onProgress: () => started() });
    await underWay;
    await expect(store.mountSource('u2', 'w')).rejects.toThrow('正在删除');
    await expect(store.rename('u2', 'w', 'w2')).rejects.toThrow('正在删除');
    expect(await deleting).toBe(true);
  });
});
