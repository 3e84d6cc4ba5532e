import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EngineEvent } from '../src/docker/container-client.js';
import { DockerodeContainerClient } from '../src/docker/dockerode-container-client.js';
import { RUN_LABEL, sleep, testDocker, uniqueId } from './helpers.js';

describe('the dockerode container client', () => {
  const client = new DockerodeContainerClient({
    dockerHost: inject('dockerHost'),
    timeoutMs: 20_000,
    pullTimeoutMs: 60_000,
  });
  const docker = testDocker();
  const runId = uniqueId('client');
  let dockerId: string;

  beforeAll(async () => {
    const container = await docker.createContainer({
      Image: inject('testImage'),
      Cmd: ['sh', '-c', 'echo started; while true; do echo tick; sleep 0.2; done'],
      Labels: { [RUN_LABEL]: runId },
    });
    await container.start();
    dockerId = container.id;
  });
  afterAll(async () => {
    const list = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${runId}`] } });
    for (const c of list) await docker.getContainer(c.Id).remove({ force: true });
  });

  it('feeds stdin to an exec and reports its exit code and output', async () => {
    const result = await client.exec(
      dockerId,
      ['sh', '-c', 'read line; echo "got $line"; echo oops >&2; exit 7'],
      'hello\n',
    );
    expect(result).toEqual({ exitCode: 7, stdout: 'got hello\n', stderr: 'oops\n' });
  });

  it('stops following the logs when closed', async () => {
    const chunks: string[] = [];
    const handle = await client.streamLogs(dockerId, { follow: true, tail: 'all', since: '' }, (message) =>
      chunks.push(message.data.toString()),
    );
    for (const until = Date.now() + 10_000; !chunks.includes('tick\n') && Date.now() < until; )
      await sleep(100);
    expect(chunks).toContain('tick\n');
    expect(client.openStreams().logs).toBe(1);
    handle.close();
    await handle.done; // settles: the Docker stream is gone
    expect(client.openStreams().logs).toBe(0);
    const count = chunks.length;
    await sleep(600);
    expect(chunks.length).toBe(count);
  });

  it('reports events of labelled containers until closed', async () => {
    const events: EngineEvent[] = [];
    const handle = await client.streamEvents([`${RUN_LABEL}=${runId}`], (e) => events.push(e));
    const other = await docker.createContainer({
      Image: inject('testImage'),
      Cmd: ['true'],
      Labels: { [RUN_LABEL]: runId },
    });
    await other.start();
    await other.wait();
    const until = Date.now() + 5000;
    while (!events.some((e) => e.dockerId === other.id && e.action === 'die') && Date.now() < until)
      await sleep(100);
    handle.close();
    await handle.done;
    expect(events.filter((e) => e.dockerId === other.id).map((e) => e.action)).toEqual(
      expect.arrayContaining(['create', 'start', 'die']),
    );
    expect(events.find((e) => e.action === 'die')?.labels[RUN_LABEL]).toBe(runId);
  });

  it('treats already stopped, already running and already gone as outcomes, not errors', async () => {
    const c = await docker.createContainer({
      Image: inject('testImage'),
      Cmd: ['sleep', '60'],
      Labels: { [RUN_LABEL]: runId },
    });
    await client.startContainer(c.id);
    await client.startContainer(c.id); // 304
    expect(await client.stopContainer(c.id, 1)).toBe(true);
    expect(await client.stopContainer(c.id, 1)).toBe(false); // 304
    expect(await client.removeContainer(c.id, false)).toBe(true);
    expect(await client.removeContainer(c.id, false)).toBe(false); // 404
    expect(await client.inspectContainer(c.id)).toBeUndefined();
    expect(await client.removeImage('gpucloud/never-existed:x')).toBe(false);
    expect(await client.imageExists(inject('testImage'))).toBe(true);
  });
});
