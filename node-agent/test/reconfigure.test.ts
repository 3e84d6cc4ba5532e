import fs from 'node:fs/promises';
import path from 'node:path';
import type { ContainerInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequest,
  freeHostPort,
  gpuUuids,
  grpcError,
  RUN_LABEL,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
} from './helpers.js';

async function sh(t: TestAgent, dockerId: string, script: string): Promise<string> {
  const exec = await t.docker
    .getContainer(dockerId)
    .exec({ Cmd: ['sh', '-c', script], AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  let out = '';
  stream.on('data', (chunk: Buffer) => {
    out += chunk.subarray(8).toString(); // one frame per chunk is enough for these short outputs
  });
  await new Promise((resolve) => stream.on('end', resolve));
  return out;
}

describe('ReconfigureContainer', () => {
  let t: TestAgent;
  let uuids: string[] = [];
  let before: ContainerInfo__Output;
  let oldPort: number;
  const containerId = `reconf-${Date.now().toString(36)}`;
  beforeAll(async () => {
    t = await startTestAgent();
    uuids = await gpuUuids(t);
    await fs.mkdir(path.join(t.volumeRoot, 'owner1', 'first'), { recursive: true });
    await fs.mkdir(path.join(t.volumeRoot, 'owner1', 'second'), { recursive: true });
    await fs.writeFile(
      path.join(t.volumeRoot, 'owner1', 'second', 'dataset.txt'),
      'from the second volume\n',
    );
    oldPort = await freeHostPort();
    before = await createRequest(t, {
      spec: testSpec(t, {
        containerId,
        gpuDeviceIds: ['0'],
        ports: [{ containerPort: 22, hostPort: oldPort, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
        mounts: [{ volumeName: 'first', target: '/mnt/first' }],
        env: { PROJECT: 'llama' },
      }),
      rootPassword: 'first-password',
      start: true,
    });
    expect(before.startError).toBe('');
    await sh(t, before.dockerId, 'echo precious > /root/notes.txt');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('recreates the container with new ports, mounts and GPUs; files, labels and password survive', async () => {
    const newPort = await freeHostPort();
    const after: ContainerInfo__Output = await unaryCall((cb) =>
      t.client.reconfigureContainer(
        {
          containerId,
          setPorts: true,
          ports: [
            { containerPort: 22, hostPort: newPort, protocol: 'PROTOCOL_TCP', name: 'ssh' },
            { containerPort: 8888, hostPort: oldPort, protocol: 'PROTOCOL_TCP', name: 'jupyter' },
          ],
          setMounts: true,
          mounts: [{ volumeName: 'second', target: '/mnt/second', readOnly: true }],
          setGpus: true,
          gpuDeviceIds: [uuids[2] ?? '', uuids[3] ?? ''],
          restartIfRunning: true,
        },
        t.md,
        cb,
      ),
    );
    expect(after.containerId).toBe(containerId);
    expect(after.dockerId).not.toBe(before.dockerId);
    expect(after.state).toBe('CONTAINER_STATE_RUNNING');
    expect(after.image).toBe(t.image); // the user's image, not the commit
    expect(after.gpuDeviceIds).toEqual(uuids.slice(2, 4));
    expect(after.ports.map((p) => [p.name, p.hostPort])).toEqual(
      [
        ['ssh', newPort],
        ['jupyter', oldPort],
      ].sort((a, b) => Number(a[1]) - Number(b[1])),
    );
    expect(after.mounts).toEqual([{ volumeName: 'second', target: '/mnt/second', readOnly: true }]);

    expect((await sh(t, after.dockerId, 'cat /root/notes.txt')).trim()).toBe('precious');
    expect((await sh(t, after.dockerId, 'cat /mnt/second/dataset.txt')).trim()).toBe(
      'from the second volume',
    );
    expect(await sh(t, after.dockerId, 'ls /mnt/first 2>&1; touch /mnt/second/x 2>&1')).toMatch(
      /No such file|Read-only/,
    );

    const info = await t.docker.getContainer(after.dockerId).inspect();
    expect(info.Name).toBe(`/gpucloud-${containerId}`);
    expect(info.Config.Image).toBe(`gpucloud/commit:${containerId}-1`);
    expect(info.Config.Labels).toMatchObject({
      'gpucloud.container-id': containerId,
      'gpucloud.owner-id': 'owner1',
      'gpucloud.gpus': uuids.slice(2, 4).join(','),
      'gpucloud.generation': '1',
      [RUN_LABEL]: t.runId,
    });
    expect(info.Config.Env).toContain(`NVIDIA_VISIBLE_DEVICES=${uuids.slice(2, 4).join(',')}`);
    expect(info.Config.Env).toContain('PROJECT=llama');
    expect(info.HostConfig.CapDrop).toEqual(['ALL']);
    // The old container is gone, only the new one carries the id.
    const withId = await t.docker.listContainers({
      all: true,
      filters: { label: [`gpucloud.container-id=${containerId}`] },
    });
    expect(withId.map((c) => c.Id)).toEqual([after.dockerId]);
    // The password set before the commit still works (the shadow file came along).
    const hash = (await sh(t, after.dockerId, 'grep ^root: /etc/shadow')).split(':')[1] ?? '';
    const salt = hash.split('$')[2] ?? '';
    expect((await sh(t, after.dockerId, `mkpasswd -m sha512 -S '${salt}' first-password`)).trim()).toBe(hash);
  });

  it('removes the superseded commit image after a second reconfigure', async () => {
    const after: ContainerInfo__Output = await unaryCall((cb) =>
      t.client.reconfigureContainer(
        { containerId, setMounts: true, mounts: [], restartIfRunning: true },
        t.md,
        cb,
      ),
    );
    expect(after.mounts).toEqual([]);
    const info = await t.docker.getContainer(after.dockerId).inspect();
    expect(info.Config.Image).toBe(`gpucloud/commit:${containerId}-2`);
    const images = await t.docker.listImages({
      filters: { reference: [`gpucloud/commit:${containerId}-*`] },
    });
    expect(images.flatMap((i) => i.RepoTags ?? [])).toEqual([`gpucloud/commit:${containerId}-2`]);
    expect((await sh(t, after.dockerId, 'cat /root/notes.txt')).trim()).toBe('precious');
  });

  it('leaves the container as it was when the new configuration cannot work', async () => {
    const current: ContainerInfo__Output = await unaryCall((cb) =>
      t.client.inspectContainer({ containerId }, t.md, cb),
    );
    const err = await grpcError(
      unaryCall((cb) =>
        t.client.reconfigureContainer(
          { containerId, setMounts: true, mounts: [{ volumeName: 'missing', target: '/x' }] },
          t.md,
          cb,
        ),
      ),
    );
    expect(err.code).toBe(grpc.status.NOT_FOUND);
    const still: ContainerInfo__Output = await unaryCall((cb) =>
      t.client.inspectContainer({ containerId }, t.md, cb),
    );
    expect(still.dockerId).toBe(current.dockerId);
    expect(still.state).toBe('CONTAINER_STATE_RUNNING');
  });

  it('resets the root password to a given or a generated one', async () => {
    const given = await unaryCall<{ password: string }>((cb) =>
      t.client.resetPassword({ containerId, password: 'N3w-password' }, t.md, cb),
    );
    expect(given.password).toBe('N3w-password');
    const generated = await unaryCall<{ password: string }>((cb) =>
      t.client.resetPassword({ containerId }, t.md, cb),
    );
    expect(generated.password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z0-9]{16}$/);
    const current: ContainerInfo__Output = await unaryCall((cb) =>
      t.client.inspectContainer({ containerId }, t.md, cb),
    );
    const hash = (await sh(t, current.dockerId, 'grep ^root: /etc/shadow')).split(':')[1] ?? '';
    const salt = hash.split('$')[2] ?? '';
    expect(
      (await sh(t, current.dockerId, `mkpasswd -m sha512 -S '${salt}' '${generated.password}'`)).trim(),
    ).toBe(hash);
  });

  it('refuses to reset the password of a stopped container', async () => {
    await unaryCall((cb) => t.client.stopContainer({ containerId, timeoutSeconds: 1 }, t.md, cb));
    const err = await grpcError(unaryCall((cb) => t.client.resetPassword({ containerId }, t.md, cb)));
    expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
  });

  it('keeps a stopped container stopped', async () => {
    const after: ContainerInfo__Output = await unaryCall((cb) =>
      t.client.reconfigureContainer(
        { containerId, setGpus: true, gpuDeviceIds: [], restartIfRunning: true },
        t.md,
        cb,
      ),
    );
    expect(after.state).toBe('CONTAINER_STATE_CREATED');
    expect(after.gpuDeviceIds).toEqual([]);
  });
});
