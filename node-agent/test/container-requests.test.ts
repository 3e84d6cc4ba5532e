import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ContainerSpec } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createRequest,
  freeHostPort,
  grpcError,
  startTestAgent,
  type TestAgent,
  testSpec,
  uniqueId,
} from './helpers.js';

describe('container requests that must be refused or reported', () => {
  let t: TestAgent;
  beforeAll(async () => {
    t = await startTestAgent();
    await fs.mkdir(path.join(t.volumeRoot, 'owner1', 'data'), { recursive: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function existsInDocker(containerId: string): Promise<boolean> {
    const list = await t.docker.listContainers({ all: true, filters: { name: [`gpucloud-${containerId}`] } });
    return list.length > 0;
  }

  async function refused(spec: ContainerSpec, code: grpc.status, message?: RegExp, extra = {}) {
    const err = await grpcError(createRequest(t, { spec, start: true, ...extra }));
    expect(err.code, err.details).toBe(code);
    if (message) expect(err.details).toMatch(message);
    expect(await existsInDocker(spec.containerId ?? '')).toBe(false);
    return err;
  }

  it('keeps the machine up when the image command cannot run, and logs why', async () => {
    const spec = testSpec(t, { command: ['/no/such/binary'] });
    const info = await createRequest(t, { spec, start: true, rootPassword: 'pw' });
    expect(info.startError).toBe('');
    expect(info.state).toBe('CONTAINER_STATE_RUNNING');
    expect(info.reachable).toBe(true);
    const logs = async () =>
      (await t.docker.getContainer(info.dockerId).logs({ stdout: true, stderr: true })).toString('utf8');
    await expect.poll(logs, { timeout: 10_000 }).toMatch(/镜像命令已退出 \(退出码 127\): \/no\/such\/binary/);
    const { State, RestartCount } = await t.docker.getContainer(info.dockerId).inspect();
    expect({ running: State.Running, restarts: RestartCount }).toEqual({ running: true, restarts: 0 });
  });

  it('refuses an image that is missing and cannot be pulled, leaving nothing behind', async () => {
    const err = await refused(
      testSpec(t, { image: 'gpucloud/does-not-exist:never' }),
      grpc.status.FAILED_PRECONDITION,
    );
    expect(err.details).toContain('gpucloud/does-not-exist:never');
  });

  it('refuses a volume that does not exist', async () => {
    await refused(
      testSpec(t, { mounts: [{ volumeName: 'nope', target: '/data' }] }),
      grpc.status.NOT_FOUND,
      /nope/,
    );
  });

  it('refuses bad mount targets and volume names', async () => {
    for (const target of ['/workspace/../etc', 'relative/path', '/proc/x', '/', '/etc']) {
      await refused(testSpec(t, { mounts: [{ volumeName: 'data', target }] }), grpc.status.INVALID_ARGUMENT);
    }
    for (const volumeName of ['../owner2/data', '/etc', 'a/b', '..', '']) {
      await refused(testSpec(t, { mounts: [{ volumeName, target: '/data' }] }), grpc.status.INVALID_ARGUMENT);
    }
  });

  it('refuses a volume that is a symlink out of the volume root', async () => {
    await fs.symlink('/etc', path.join(t.volumeRoot, 'owner1', 'evil'));
    await refused(
      testSpec(t, { mounts: [{ volumeName: 'evil', target: '/data' }] }),
      grpc.status.FAILED_PRECONDITION,
      /symlink/,
    );
  });

  it('refuses labels the agent owns and env that would pick GPUs', async () => {
    const spec = testSpec(t);
    await refused(
      { ...spec, labels: { ...spec.labels, 'gpucloud.owner-id': 'mallory' } },
      grpc.status.INVALID_ARGUMENT,
      /gpucloud\.owner-id/,
    );
    await refused(
      testSpec(t, { env: { NVIDIA_VISIBLE_DEVICES: 'all' } }),
      grpc.status.INVALID_ARGUMENT,
      /环境变量 NVIDIA_VISIBLE_DEVICES 由平台设置/,
    );
  });

  it('refuses ports outside the node range and ports in use', async () => {
    await refused(
      testSpec(t, { ports: [{ containerPort: 22, hostPort: 22, protocol: 'PROTOCOL_TCP' }] }),
      grpc.status.INVALID_ARGUMENT,
      /22/,
    );
    // A port the user chose may lie outside the node's range, but not below 10000.
    await refused(
      testSpec(t, {
        ports: [{ containerPort: 8080, hostPort: 9999, protocol: 'PROTOCOL_TCP', name: 'custom' }],
      }),
      grpc.status.INVALID_ARGUMENT,
      /自定义端口 9999/,
    );
    const port = await freeHostPort();
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      await refused(
        testSpec(t, { ports: [{ containerPort: 22, hostPort: port, protocol: 'PROTOCOL_TCP' }] }),
        grpc.status.FAILED_PRECONDITION,
        new RegExp(String(port)),
      );
    } finally {
      server.close();
    }
  });

  it('refuses unknown GPUs and GPUs a running container holds', async () => {
    await refused(testSpec(t, { gpuDeviceIds: ['9'] }), grpc.status.FAILED_PRECONDITION, /9/);
    const holder = await createRequest(t, { spec: testSpec(t, { gpuDeviceIds: ['3'] }), start: true });
    expect(holder.startError).toBe('');
    await refused(testSpec(t, { gpuDeviceIds: ['3', '4'] }), grpc.status.FAILED_PRECONDITION, /GPU 3/);
  });

  it('refuses malformed passwords and SSH keys', async () => {
    await refused(testSpec(t), grpc.status.INVALID_ARGUMENT, undefined, { rootPassword: 'a\nroot:x' });
    await refused(testSpec(t), grpc.status.INVALID_ARGUMENT, undefined, { authorizedKeys: ['not a key'] });
  });

  it('tells a container without GPUs that it has none', async () => {
    const info = await createRequest(t, { spec: testSpec(t), start: false });
    const inspected = await t.docker.getContainer(info.dockerId).inspect();
    expect(inspected.Config.Env).toContain('NVIDIA_VISIBLE_DEVICES=void');
    expect(inspected.Config.Env).toContain('NVIDIA_DRIVER_CAPABILITIES=compute,utility');
    expect(info.state).toBe('CONTAINER_STATE_CREATED');
  });

  it('refuses an id Docker could not name', async () => {
    await refused(testSpec(t, { containerId: '../evil' }), grpc.status.INVALID_ARGUMENT);
  });
});

describe('a volume that holds the Docker socket', () => {
  it.runIf(inject('dockerHost').startsWith('unix://'))('is never mounted', async () => {
    // The agent reaches Docker through a link inside a volume directory: mounting that volume
    // would hand the container the engine.
    const volumeRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-sock-'));
    const sockDir = path.join(volumeRoot, 'owner1', 'sock');
    await fs.mkdir(sockDir, { recursive: true });
    const engine = inject('dockerHost');
    await fs.symlink(engine.slice('unix://'.length), path.join(sockDir, 'docker.sock'));
    const t = await startTestAgent({ volumeRoot, dockerHost: `unix://${path.join(sockDir, 'docker.sock')}` });
    try {
      const spec = testSpec(t, {
        containerId: uniqueId('sock'),
        mounts: [{ volumeName: 'sock', target: '/data' }],
      });
      const err = await grpcError(createRequest(t, { spec, start: false }));
      expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(err.details).toMatch(/Docker socket/);
    } finally {
      await t.close();
      await fs.rm(volumeRoot, { recursive: true, force: true });
    }
  });
});
