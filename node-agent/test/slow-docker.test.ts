// The agent when Docker answers late: a relay (docker-proxy.ts) holds one request back.
import type { ContainerInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DockerProxy, startDockerProxy } from './docker-proxy.js';
import {
  createRequest,
  eventually,
  execIn,
  freeHostPort,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
} from './helpers.js';

describe('a console whose shell Docker starts only after the deadline', () => {
  let proxy: DockerProxy;
  let maker: TestAgent;
  let t: TestAgent;
  let dockerId: string;
  let containerId: string;

  beforeAll(async () => {
    proxy = await startDockerProxy(inject('dockerHost'));
    // The container is made with the usual deadlines (a loaded machine's Docker may take more
    // than a second to create one); the agent of the test, on the same node, has 1 s.
    maker = await startTestAgent({ dockerHost: proxy.dockerHost });
    ({ dockerId, containerId } = await createRequest(maker, { spec: testSpec(maker), start: true }));
    t = await startTestAgent({
      dockerHost: proxy.dockerHost,
      dockerTimeoutMs: 1000,
      nodeName: maker.agent.config.nodeName,
    });
  });
  afterAll(async () => {
    await t?.close();
    await maker?.close(); // with its container
    await proxy?.close();
  });

  it('fails the open with DEADLINE_EXCEEDED and hangs up the shell that starts late', async () => {
    // Docker gets the exec start 2.5 s late, long after the agent's 1 s deadline.
    proxy.delayNext(/^POST \S*\/exec\/[0-9a-f]+\/start/, 2500);
    const call = t.client.console(t.md);
    const failed = new Promise<grpc.ServiceError>((resolve) => call.on('error', resolve));
    call.write({
      open: { containerId, command: ['sh', '-c', 'echo started > /tmp/late-console; exec sleep 987'] },
    });
    expect((await failed).code).toBe(grpc.status.DEADLINE_EXCEEDED);

    // The shell did start once Docker got the request...
    await eventually(
      async () =>
        (await execIn(t, dockerId, 'cat /tmp/late-console 2>/dev/null')).includes('started')
          ? true
          : undefined,
      10_000,
      'the late shell to start',
    );
    // ...and nothing of it is left running, nor held open by the agent.
    await eventually(
      async () => ((await execIn(t, dockerId, 'ps -o args')).includes('sleep 987') ? undefined : true),
      10_000,
      'the late shell to be hung up',
    );
    await eventually(
      async () => {
        const open = t.agent.openStreams();
        return open.calls === 0 && open.docker.consoles === 0 ? true : undefined;
      },
      5_000,
      'the console streams to close',
    );
  });
});

describe('a password reset while a reconfigure recreates the container', () => {
  let proxy: DockerProxy;
  let t: TestAgent;

  beforeAll(async () => {
    proxy = await startDockerProxy(inject('dockerHost'));
    t = await startTestAgent({ dockerHost: proxy.dockerHost });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  it('waits for the recreate and lands in the new container', async () => {
    const created = await createRequest(t, {
      spec: testSpec(t, {
        ports: [{ containerPort: 22, hostPort: await freeHostPort(), protocol: 'PROTOCOL_TCP', name: 'ssh' }],
      }),
      rootPassword: 'before-reset',
      start: true,
    });
    // The recreate's create call reaches Docker 1.5 s late: the old container is parked by then.
    const newPort = await freeHostPort();
    proxy.delayNext(/^POST \S*\/containers\/create/, 1500);
    const reconfigured = unaryCall<ContainerInfo__Output>((cb) =>
      t.client.reconfigureContainer(
        {
          containerId: created.containerId,
          setPorts: true,
          ports: [{ containerPort: 22, hostPort: newPort, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
          restartIfRunning: true,
        },
        t.md,
        cb,
      ),
    );
    await eventually(
      async () => {
        const parked = await t.docker.listContainers({
          all: true,
          filters: { name: [`gpucloud-${created.containerId}-superseded`] },
        });
        return parked.length > 0 ? true : undefined;
      },
      10_000,
      'the old container to be parked',
    );
    const reset = await unaryCall<{ password: string }>((cb) =>
      t.client.resetPassword({ containerId: created.containerId, password: 'after-reset' }, t.md, cb),
    );
    expect(reset.password).toBe('after-reset');
    const after = await reconfigured;
    expect(after.dockerId).not.toBe(created.dockerId);
    const hash = (await execIn(t, after.dockerId, 'grep ^root: /etc/shadow')).split(':')[1] ?? '';
    const salt = hash.split('$')[2] ?? '';
    expect((await execIn(t, after.dockerId, `mkpasswd -m sha512 -S '${salt}' 'after-reset'`)).trim()).toBe(
      hash,
    );
  });
});
