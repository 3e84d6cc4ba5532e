import type { AgentEvent__Output, ConsoleOutput__Output, LogChunk__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { engineWithoutLogFiles } from './engine-without-log-files.js';
import { createRequest, eventually, startTestAgent, type TestAgent, testSpec, unaryCall } from './helpers.js';
import { engineConnections, openSocketFds } from './open-connections.js';

const VIEWERS = 1000;
const BATCH = 50;

/** Opens a following log viewer and resolves once Docker's data arrives, with a way to leave. */
function openViewer(t: TestAgent, containerId: string): Promise<{ leave(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const call = t.client.streamLogs({ containerId, follow: true, tail: 5 }, t.md);
    const cancelled = new Promise<void>((done, fail) => {
      call.on('error', (err: grpc.ServiceError) => (err.code === grpc.status.CANCELLED ? done() : fail(err)));
    });
    cancelled.catch(reject);
    call.once('data', (chunk: LogChunk__Output) => {
      // The tail may start with our init's `[gpucloud] …` lines, then the command's ticks.
      if (!/tick|\[gpucloud\]/.test(chunk.data.toString())) reject(new Error('unexpected log data'));
      resolve({
        leave: () => {
          call.cancel();
          return cancelled;
        },
      });
    });
  });
}

describe('1,000 log viewers that come and go', () => {
  let t: TestAgent;
  let containerId: string;
  const dockerHost = inject('dockerHost');

  beforeAll(async () => {
    // Logs through Docker's API (the agent reads a json-file log itself where it may; that
    // reader's leaks are checked in log-json-file.test.ts).
    t = await startTestAgent({}, { containerClient: engineWithoutLogFiles(dockerHost) });
    const info = await createRequest(t, {
      spec: testSpec(t, { command: ['sh', '-c', 'while true; do echo tick; sleep 1; done'] }),
      start: true,
    });
    containerId = info.containerId;
    // Warm up: the gRPC channel and one viewer, so the baseline holds the steady connections.
    await (await openViewer(t, containerId)).leave();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('leave no Docker stream, connection or gRPC call behind', async () => {
    const quiet = () =>
      eventually(
        async () => {
          const open = t.agent.openStreams();
          return open.calls === 0 && open.docker.logs === 0 ? open : undefined;
        },
        10_000,
        'every log stream to close',
      );
    await quiet();
    const before = { engine: engineConnections(dockerHost), sockets: openSocketFds() };
    const started = Date.now();
    let peakDockerStreams = 0;
    let peakEngineConnections = 0;

    for (let opened = 0; opened < VIEWERS; opened += BATCH) {
      const viewers = await Promise.all(Array.from({ length: BATCH }, () => openViewer(t, containerId)));
      // While they watch, the agent really holds a Docker stream and a call for each (a viewer
      // may for a moment hold a second one: the read-back of a gap between two messages).
      const open = t.agent.openStreams();
      expect(open.docker.logs).toBeGreaterThanOrEqual(BATCH);
      expect(open.docker.logs).toBeLessThanOrEqual(2 * BATCH);
      expect(open.calls).toBe(BATCH);
      peakDockerStreams = Math.max(peakDockerStreams, open.docker.logs);
      peakEngineConnections = Math.max(peakEngineConnections, engineConnections(dockerHost));
      await Promise.all(viewers.map((v) => v.leave()));
    }

    const after = await quiet();
    // Idle keep-alive connections of ordinary Docker calls may linger for a few seconds; a
    // leaked follow never closes.
    const engine = await eventually(
      async () => {
        const n = engineConnections(dockerHost);
        return n <= before.engine + 2 ? n : undefined;
      },
      10_000,
      'the engine connections to close',
    );
    const sockets = openSocketFds();
    console.info(
      `[log viewers] ${VIEWERS} viewers in ${Date.now() - started} ms; Docker log streams open at the peak ${peakDockerStreams}, after ${after.docker.logs}; ` +
        `gRPC streams after ${after.calls}; engine connections before ${before.engine}, peak ${peakEngineConnections}, after ${engine}; ` +
        `socket fds before ${before.sockets}, after ${sockets}`,
    );
    expect(peakEngineConnections).toBeGreaterThanOrEqual(BATCH); // the count sees the follows
    expect(after).toEqual({ calls: 0, docker: { logs: 0, events: 0, consoles: 0 } });
    expect(sockets).toBeLessThanOrEqual(before.sockets + 2);
    // The agent still serves, and a new viewer still gets its logs.
    await unaryCall((cb) => t.client.inspectContainer({ containerId }, t.md, cb));
    await (await openViewer(t, containerId)).leave();
  }, 120_000);
});

describe('event watchers and consoles that come and go', () => {
  let t: TestAgent;
  let containerId: string;
  let dockerId: string;
  const dockerHost = inject('dockerHost');

  beforeAll(async () => {
    t = await startTestAgent();
    ({ containerId, dockerId } = await createRequest(t, { spec: testSpec(t), start: true }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('close their Docker event streams and hang up their shells', async () => {
    const before = engineConnections(dockerHost);
    const watchers = await Promise.all(
      Array.from(
        { length: 100 },
        () =>
          new Promise<grpc.ClientReadableStream<AgentEvent__Output>>((resolve, reject) => {
            const call = t.client.watchEvents({ heartbeatIntervalMs: 200 }, t.md);
            call.once('data', () => resolve(call));
            call.on('error', (err: grpc.ServiceError) => err.code !== grpc.status.CANCELLED && reject(err));
          }),
      ),
    );
    const consoles = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const call = t.client.console(t.md);
        call.on('error', () => undefined); // cancelled below
        call.write({ open: { containerId, command: ['sh', '-c', `echo ready-${i}; exec sleep 600`] } });
        return new Promise<typeof call>((resolve) =>
          call.on(
            'data',
            (out: ConsoleOutput__Output) => out.data?.toString().includes('ready') && resolve(call),
          ),
        );
      }),
    );
    expect(t.agent.openStreams()).toMatchObject({ calls: 120, docker: { events: 100, consoles: 20 } });
    for (const call of [...watchers, ...consoles]) call.cancel();

    const after = await eventually(
      async () => {
        const open = t.agent.openStreams();
        return open.calls === 0 && open.docker.events === 0 && open.docker.consoles === 0 ? open : undefined;
      },
      15_000,
      'the watchers and consoles to close',
    );
    expect(after.docker.logs).toBe(0);
    await eventually(
      async () => {
        const exec = await t.docker
          .getContainer(dockerId)
          .exec({ Cmd: ['ps', '-o', 'args'], AttachStdout: true });
        const stream = await exec.start({ hijack: true, stdin: false });
        let out = '';
        stream.on('data', (d: Buffer) => {
          out += d.toString();
        });
        await new Promise((resolve) => stream.on('end', resolve));
        return out.includes('sleep 600') ? undefined : true;
      },
      15_000,
      'every console shell to be hung up',
    );
    await eventually(
      async () => (engineConnections(dockerHost) <= before + 2 ? true : undefined),
      10_000,
      'the engine connections to close',
    );
  }, 60_000);
});
