import fs from 'node:fs/promises';
import path from 'node:path';
import type { ContainerInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequest,
  execIn,
  freeHostPort,
  gpuUuids,
  grpcError,
  RUN_LABEL,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
} from './helpers.js';

const MIB = 1024 * 1024;
const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop';
/** Linux capability numbers (linux/capability.h) of the capabilities the agent keeps. */
const CAP_NUMBERS: Record<string, number> = {
  CHOWN: 0,
  DAC_OVERRIDE: 1,
  FOWNER: 3,
  FSETID: 4,
  KILL: 5,
  SETGID: 6,
  SETUID: 7,
  SETPCAP: 8,
  NET_BIND_SERVICE: 10,
  SYS_CHROOT: 18,
  AUDIT_WRITE: 29,
};
const CAPS = [
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'SETGID',
  'SETUID',
  'SETPCAP',
  'NET_BIND_SERVICE',
  'SYS_CHROOT',
  'AUDIT_WRITE',
];

describe('containers on the real Docker engine', () => {
  let t: TestAgent;
  let uuids: string[] = [];
  let sshPort: number;
  let jupyterPort: number;
  let created: ContainerInfo__Output;
  const containerId = `ctr-${Date.now().toString(36)}`;

  beforeAll(async () => {
    t = await startTestAgent();
    uuids = await gpuUuids(t);
    sshPort = await freeHostPort();
    jupyterPort = await freeHostPort();
    await unaryCall((cb) => t.client.createVolume({ ownerId: 'owner1', name: 'data' }, t.md, cb));
    created = await createRequest(t, {
      spec: testSpec(t, {
        containerId,
        gpuDeviceIds: ['0', '1'],
        ports: [
          { containerPort: 22, hostPort: sshPort, protocol: 'PROTOCOL_TCP', name: 'ssh' },
          { containerPort: 8888, hostPort: jupyterPort, protocol: 'PROTOCOL_TCP', name: 'jupyter' },
        ],
        mounts: [{ volumeName: 'data', target: '/workspace/data' }],
        resources: { memoryBytes: 512 * MIB, nanoCpus: 1_000_000_000 },
        env: { FOO: 'bar' },
      }),
      rootPassword: 'S3cret-pass:with colon',
      authorizedKeys: [KEY],
      start: true,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates and starts the container and reports it', () => {
    expect(created.startError).toBe('');
    expect(created.state).toBe('CONTAINER_STATE_RUNNING');
    expect(created.containerId).toBe(containerId);
    expect(created.ownerId).toBe('owner1');
    // Asked for by index (as containers were before UUIDs), given and labelled by UUID.
    expect(created.gpuDeviceIds).toEqual(uuids.slice(0, 2));
    expect(created.ports.map((p) => [p.name, p.containerPort, p.hostPort, p.hostIp])).toEqual(
      [
        ['ssh', 22, sshPort, '127.0.0.1'],
        ['jupyter', 8888, jupyterPort, '127.0.0.1'],
      ].sort((a, b) => Number(a[2]) - Number(b[2])),
    );
    expect(created.mounts).toEqual([{ volumeName: 'data', target: '/workspace/data', readOnly: false }]);
    expect(created.resources).toMatchObject({
      memoryBytes: String(512 * MIB),
      pidsLimit: '4096',
      shmSizeBytes: String(256 * MIB),
    });
  });

  it('gives Docker the labels, simulated GPUs, ports, limits, mounts and hardening', async () => {
    const info = await t.docker.getContainer(created.dockerId).inspect();
    expect(info.Name).toBe(`/gpucloud-${containerId}`);
    expect(info.Config.Labels).toMatchObject({
      'gpucloud.managed': 'true',
      'gpucloud.container-id': containerId,
      'gpucloud.owner-id': 'owner1',
      'gpucloud.owner-name': 'Alice',
      'gpucloud.gpus': uuids.slice(0, 2).join(','),
      'gpucloud.node': t.agent.config.nodeName,
      [RUN_LABEL]: t.runId,
    });
    expect(JSON.parse(info.Config.Labels['gpucloud.ports'] ?? '[]')).toHaveLength(2);
    expect(JSON.parse(info.Config.Labels['gpucloud.mounts'] ?? '[]')).toEqual([
      { volumeName: 'data', target: '/workspace/data', readOnly: false },
    ]);
    expect(info.Config.Env).toContain(`NVIDIA_VISIBLE_DEVICES=${uuids.slice(0, 2).join(',')}`);
    expect(info.Config.Env).toContain('NVIDIA_DRIVER_CAPABILITIES=compute,utility');
    expect(info.Config.Env).toContain('FOO=bar');
    const host = info.HostConfig;
    expect(host.DeviceRequests ?? []).toEqual([]);
    expect(host.PortBindings).toEqual({
      '22/tcp': [{ HostIp: '127.0.0.1', HostPort: String(sshPort) }],
      '8888/tcp': [{ HostIp: '127.0.0.1', HostPort: String(jupyterPort) }],
    });
    expect(host.CapDrop).toEqual(['ALL']);
    expect([...(host.CapAdd as string[])].sort()).toEqual([...CAPS].sort());
    expect(host.SecurityOpt).toContain('no-new-privileges:true');
    expect(host.Privileged).toBe(false);
    expect(host.Init).toBe(true);
    expect(host.PidsLimit).toBe(4096);
    expect(host.Memory).toBe(512 * MIB);
    expect(host.NanoCpus).toBe(1_000_000_000);
    expect(host.ShmSize).toBe(256 * MIB);
    expect(host.RestartPolicy?.Name).toBe('unless-stopped');
    const source = await fs.realpath(path.join(t.volumeRoot, 'owner1', 'data'));
    expect(host.Mounts).toEqual([
      expect.objectContaining({ Type: 'bind', Source: source, Target: '/workspace/data' }),
      // The toolbox: our SSH server, sftp-server, busybox and init, read-only.
      expect.objectContaining({ Type: 'bind', Target: '/.gpucloud', ReadOnly: true }),
      // The agent's folder of what this container's starts stage for the init, read-only.
      expect.objectContaining({ Type: 'bind', Target: '/.gpucloud/staged', ReadOnly: true }),
    ]);
    // Docker lists a running container's mounts in no fixed order.
    expect(info.Mounts).toHaveLength(3);
    expect(info.Mounts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Type: 'bind', Source: source, Destination: '/workspace/data', RW: true }),
        expect.objectContaining({ Type: 'bind', Destination: '/.gpucloud', RW: false }),
        expect.objectContaining({ Type: 'bind', Destination: '/.gpucloud/staged', RW: false }),
      ]),
    );
    // Our init runs the image's own command (the base image's `sh`) as root's child of docker-init.
    expect(info.Config.Entrypoint).toEqual(['/.gpucloud/init']);
    expect(info.Config.Cmd).toEqual(['sh']);
    expect(JSON.stringify(info.Mounts)).not.toContain('docker.sock');
  });

  it('enforces the hardening inside the running container', async () => {
    const status = await execIn(t, created.dockerId, 'cat /proc/1/status; echo; cat /proc/self/status');
    // Every process, the exec'd shell included: no new privileges, only the listed capabilities.
    expect(status.match(/^NoNewPrivs:\s+(\d)$/gm)).toEqual(['NoNewPrivs:\t1', 'NoNewPrivs:\t1']);
    const mask = CAPS.reduce((m, cap) => m | (1n << BigInt(CAP_NUMBERS[cap] ?? 63)), 0n);
    const capabilities = status.match(/^Cap(Bnd|Eff|Prm):\s+[0-9a-f]+$/gm) ?? [];
    expect(capabilities).toHaveLength(6);
    for (const line of capabilities) {
      expect(BigInt(`0x${line.split(/\s+/)[1]}`)).toBe(mask);
    }
    const limits = await execIn(
      t,
      created.dockerId,
      // cgroup v2, else v1
      'cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max; ' +
        'cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes; ' +
        "df -k /dev/shm | awk 'NR==2 {print $2}'",
    );
    expect(limits.trim().split('\n')).toEqual(['4096', String(512 * MIB), String((256 * MIB) / 1024)]);
    // Not privileged: no mounts, no network admin, no raw devices; and no Docker socket anywhere.
    const refused = await execIn(
      t,
      created.dockerId,
      'mount -t tmpfs none /mnt 2>/dev/null && echo mounted; ip link add dummy0 type dummy 2>/dev/null && echo linked; ' +
        'ls /dev/sda /dev/mem 2>/dev/null; ls /var/run/docker.sock /run/docker.sock 2>/dev/null; echo done',
    );
    expect(refused.trim()).toBe('done');
  });

  it('sets the root password and writes the SSH keys before the SSH server starts, no tool of the image', async () => {
    const shadow = (await execIn(t, created.dockerId, 'grep ^root: /etc/shadow')).trim();
    const hash = shadow.split(':')[1] ?? '';
    expect(hash).toMatch(/^\$6\$/);
    const salt = hash.split('$')[2] ?? '';
    // Hash the expected password with the same salt: equal hashes mean the password works.
    const expected = (
      await execIn(t, created.dockerId, `mkpasswd -m sha512 -S '${salt}' 'S3cret-pass:with colon'`)
    ).trim();
    expect(hash).toBe(expected);
    expect((await execIn(t, created.dockerId, 'cat /root/.ssh/authorized_keys')).trim()).toBe(KEY);
    // Staged for the init before the start (a hash, never the password), emptied after it.
    const staged = path.join(t.stateDir, 'access', containerId);
    expect(await fs.readdir(staged)).toEqual([]);
    expect((await execIn(t, created.dockerId, 'ls -A /.gpucloud/staged')).trim()).toBe('');
    expect(
      (await execIn(t, created.dockerId, 'stat -c %a /root/.ssh /root/.ssh/authorized_keys'))
        .trim()
        .split('\n'),
    ).toEqual(['700', '600']);
  });

  it('mounts the volume read-write', async () => {
    await execIn(t, created.dockerId, 'echo hello > /workspace/data/from-container.txt');
    const onHost = await fs.readFile(path.join(t.volumeRoot, 'owner1', 'data', 'from-container.txt'), 'utf8');
    expect(onHost).toBe('hello\n');
  });

  it('lists and inspects the container by its platform id', async () => {
    const inspected: ContainerInfo__Output = await unaryCall((cb) =>
      t.client.inspectContainer({ containerId }, t.md, cb),
    );
    expect(inspected.dockerId).toBe(created.dockerId);
    const listed = await unaryCall<{ containers: ContainerInfo__Output[] }>((cb) =>
      t.client.listContainers({ all: true, ownerId: 'owner1' }, t.md, cb),
    );
    expect(listed.containers.map((c) => c.containerId)).toContain(containerId);
    const other = await unaryCall<{ containers: ContainerInfo__Output[] }>((cb) =>
      t.client.listContainers({ all: true, ownerId: 'somebody-else' }, t.md, cb),
    );
    expect(other.containers.map((c) => c.containerId)).not.toContain(containerId);
  });

  it('refuses a second container with the same id, before saying its ports are taken', async () => {
    // A retried create (its answer was lost) names the same ports, which the first one holds.
    const spec = testSpec(t, {
      containerId,
      ports: [{ containerPort: 22, hostPort: sshPort, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
    });
    const err = await grpcError(createRequest(t, { spec, start: false }));
    expect(err.code).toBe(grpc.status.ALREADY_EXISTS);
  });

  it('stops twice, starts again, refuses to remove a running container without force, removes twice', async () => {
    const stop = () =>
      unaryCall<ContainerInfo__Output>((cb) =>
        t.client.stopContainer({ containerId, timeoutSeconds: 1 }, t.md, cb),
      );
    expect((await stop()).state).toBe('CONTAINER_STATE_EXITED');
    expect((await stop()).state).toBe('CONTAINER_STATE_EXITED');
    const started: ContainerInfo__Output = await unaryCall((cb) =>
      t.client.startContainer({ containerId, authorizedKeys: [KEY] }, t.md, cb),
    );
    expect(started.state).toBe('CONTAINER_STATE_RUNNING');
    const running = await grpcError(
      unaryCall((cb) => t.client.removeContainer({ containerId, force: false }, t.md, cb)),
    );
    expect(running.code).toBe(grpc.status.FAILED_PRECONDITION);
    const first = await unaryCall<{ removed: boolean }>((cb) =>
      t.client.removeContainer({ containerId, force: true }, t.md, cb),
    );
    expect(first.removed).toBe(true);
    // Its staging folder goes with it.
    await expect(fs.stat(path.join(t.stateDir, 'access', containerId))).rejects.toThrow(/ENOENT/);
    const second = await unaryCall<{ removed: boolean }>((cb) =>
      t.client.removeContainer({ containerId, force: true }, t.md, cb),
    );
    expect(second.removed).toBe(false);
    const gone = await grpcError(unaryCall((cb) => t.client.inspectContainer({ containerId }, t.md, cb)));
    expect(gone.code).toBe(grpc.status.NOT_FOUND);
    const stopGone = await grpcError(stop());
    expect(stopGone.code).toBe(grpc.status.NOT_FOUND);
  });
});
