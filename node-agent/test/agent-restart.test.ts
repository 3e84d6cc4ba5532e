import type { AgentEvent__Output, ContainerInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequest,
  freeHostPort,
  grpcError,
  removeRunContainers,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
  uniqueId,
} from './helpers.js';

/** Everything a control plane knows of a container, as the agent reports it. */
const identity = (c: ContainerInfo__Output) => ({
  containerId: c.containerId,
  dockerId: c.dockerId,
  ownerId: c.ownerId,
  displayName: c.displayName,
  image: c.image,
  state: c.state,
  gpuDeviceIds: c.gpuDeviceIds,
  ports: c.ports,
  mounts: c.mounts,
  labels: c.labels,
  resources: c.resources,
});

describe('after an agent restart', () => {
  const nodeName = uniqueId('node');
  let before: TestAgent;
  let after: TestAgent;
  let created: ContainerInfo__Output;
  let sshPort: number;

  beforeAll(async () => {
    before = await startTestAgent({ nodeName });
    sshPort = await freeHostPort();
    await unaryCall((cb) => before.client.createVolume({ ownerId: 'owner1', name: 'work' }, before.md, cb));
    created = await createRequest(before, {
      spec: testSpec(before, {
        gpuDeviceIds: ['2', '3'],
        ports: [{ containerPort: 22, hostPort: sshPort, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
        mounts: [{ volumeName: 'work', target: '/workspace' }],
      }),
      rootPassword: 'pw-1',
      start: true,
    });
    expect(created.startError).toBe('');
    // The agent goes away (upgrade, crash); its containers stay with Docker.
    before.client.close();
    await before.agent.close(500);
    after = await startTestAgent({ nodeName, volumeRoot: before.volumeRoot });
  });
  afterAll(async () => {
    if (before) await removeRunContainers(before.docker, before.runId);
    await after?.close();
  });

  it('lists the same container with the same identity, ports, mounts and GPUs', async () => {
    const listed = await unaryCall<{ containers: ContainerInfo__Output[] }>((cb) =>
      after.client.listContainers({ all: true, ownerId: 'owner1' }, after.md, cb),
    );
    const found = listed.containers.find((c) => c.containerId === created.containerId);
    expect(found && identity(found)).toEqual(identity(created));
  });

  it('reports it in the reconciler report of the new agent', async () => {
    const call = after.client.watchEvents({ heartbeatIntervalMs: 1000 }, after.md);
    const report = await new Promise<AgentEvent__Output>((resolve, reject) => {
      call.on('data', (e: AgentEvent__Output) => e.event === 'reconcile' && resolve(e));
      call.on('error', reject);
    });
    call.cancel();
    expect(report.reconcile?.containers.map((c) => c.containerId)).toContain(created.containerId);
  });

  it('still knows what the container holds: its GPUs, its host port and its volume', async () => {
    const gpu = await grpcError(
      createRequest(after, { spec: testSpec(after, { gpuDeviceIds: ['3'] }), start: true }),
    );
    expect(gpu.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(gpu.details).toContain(created.containerId);
    const port = await grpcError(
      createRequest(after, {
        spec: testSpec(after, {
          ports: [{ containerPort: 22, hostPort: sshPort, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
        }),
        start: true,
      }),
    );
    expect(port.code).toBe(grpc.status.FAILED_PRECONDITION);
    const volume = await grpcError(
      unaryCall((cb) => after.client.deleteVolume({ ownerId: 'owner1', name: 'work' }, after.md, cb)),
    );
    expect(volume.code).toBe(grpc.status.FAILED_PRECONDITION);
  });

  it('manages it as before: stop, start, remove', async () => {
    const { containerId } = created;
    const stopped: ContainerInfo__Output = await unaryCall((cb) =>
      after.client.stopContainer({ containerId, timeoutSeconds: 1 }, after.md, cb),
    );
    expect(stopped.state).toBe('CONTAINER_STATE_EXITED');
    const started: ContainerInfo__Output = await unaryCall((cb) =>
      after.client.startContainer({ containerId }, after.md, cb),
    );
    expect(started.state).toBe('CONTAINER_STATE_RUNNING');
    const removed = await unaryCall<{ removed: boolean }>((cb) =>
      after.client.removeContainer({ containerId, force: true }, after.md, cb),
    );
    expect(removed.removed).toBe(true);
  });
});
