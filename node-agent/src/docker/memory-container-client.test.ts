import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitReachable } from '../containers/readiness.js';
import { AgentError } from '../errors.js';
import { containerEventFrom } from '../events/event-watch.js';
import type { ContainerDefinition, EngineEvent, LogMessage } from './container-client.js';
import { containerName, LABELS, MANAGED_FILTER, managedLabels } from './labels.js';
import { MemoryContainerClient } from './memory-container-client.js';

const IMAGE = 'gpucloud-test/sshd:local';
const BANNER = 'SSH-2.0-memory\r\n';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function definition(containerId: string, hostPort: number, extra: Partial<ContainerDefinition> = {}) {
  const ports = [{ containerPort: 22, hostPort, protocol: 'tcp' as const, hostIp: '127.0.0.1', name: 'ssh' }];
  return {
    name: containerName(containerId),
    image: IMAGE,
    env: ['A=1'],
    labels: managedLabels(
      {
        containerId,
        ownerId: '7',
        ownerName: 'alice',
        displayName: containerId,
        node: 'node-a',
        image: IMAGE,
        generation: 0,
        gpuDeviceIds: ['GPU-1'],
        ports,
        mounts: [],
      },
      {},
    ),
    command: [],
    ports,
    binds: [],
    nvidiaDeviceIds: [],
    resources: { memoryBytes: 1 << 30, nanoCpus: 1e9, pidsLimit: 1000, shmSizeBytes: 1 << 26 },
    logLimits: { maxSize: '10m', maxFiles: 3 },
    ...extra,
  } satisfies ContainerDefinition;
}

const clients: MemoryContainerClient[] = [];
function engine(options: ConstructorParameters<typeof MemoryContainerClient>[0] = {}) {
  const client = new MemoryContainerClient({
    images: [{ ref: IMAGE, config: { command: ['bash'], user: 'root' }, serves: { 22: BANNER } }],
    ...options,
  });
  clients.push(client);
  return client;
}
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});

describe('MemoryContainerClient', () => {
  it('creates, starts, stops and removes a container as Docker reports it', async () => {
    const client = engine();
    const port = await freePort();
    const id = await client.createContainer(definition('c1', port));
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    // By Docker id, by name (with or without the slash), by a 12-digit prefix.
    for (const ref of [id, 'gpucloud-c1', '/gpucloud-c1', id.slice(0, 12)]) {
      expect((await client.inspectContainer(ref))?.dockerId).toBe(id);
    }
    let details = await client.inspectContainer(id);
    expect(details).toMatchObject({ state: 'created', command: ['bash'], user: 'root', image: IMAGE });
    expect(details?.env).toContain('A=1');
    // The name is taken: a second create fails as Docker's 409 does.
    await expect(client.createContainer(definition('c1', port))).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
    });

    await client.startContainer(id);
    await client.startContainer(id); // already running: no error (Docker's 304)
    details = await client.inspectContainer(id);
    expect(details?.state).toBe('running');
    expect(details?.startedAtMs).toBeGreaterThan(0);

    expect(await client.stopContainer(id, 10)).toBe(true);
    expect(await client.stopContainer(id, 10)).toBe(false); // already stopped
    details = await client.inspectContainer(id);
    expect(details).toMatchObject({ state: 'exited', exitCode: 0 });

    expect(await client.removeContainer(id, false)).toBe(true);
    expect(await client.removeContainer(id, false)).toBe(false);
    expect(await client.inspectContainer(id)).toBeUndefined();
    await expect(client.startContainer(id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses to remove a running container unless forced, and to create from a missing image', async () => {
    const client = engine();
    const id = await client.createContainer(definition('c2', await freePort()));
    await client.startContainer(id);
    await expect(client.removeContainer(id, false)).rejects.toBeInstanceOf(AgentError);
    expect(await client.removeContainer(id, true)).toBe(true);
    await expect(
      client.createContainer(definition('c3', await freePort(), { image: 'nope:1' })),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists by label filter and state, with the published ports of running containers', async () => {
    const client = engine();
    const [p1, p2] = [await freePort(), await freePort()];
    const a = await client.createContainer(definition('a', p1));
    const b = await client.createContainer(
      definition('b', p2, { labels: { ...definition('b', p2).labels, [LABELS.node]: 'node-b' } }),
    );
    await client.startContainer(a);
    expect(
      (await client.listContainers({ all: false, labels: [MANAGED_FILTER] })).map((c) => c.dockerId),
    ).toEqual([a]);
    const all = await client.listContainers({ all: true, labels: [MANAGED_FILTER, `${LABELS.node}=node-b`] });
    expect(all).toEqual([expect.objectContaining({ dockerId: b, state: 'created', publishedPorts: [] })]);
    expect((await client.listContainers({ all: true, labels: [] })).length).toBe(2);
    const running = await client.listContainers({ all: false, labels: [] });
    expect(running[0]?.publishedPorts).toEqual([p1]);
    // Two containers cannot publish one host port.
    const clash = await client.createContainer(definition('clash', p1));
    await expect(client.startContainer(clash)).rejects.toThrow(/already allocated/);
  });

  it('serves the image port on the published host port, so the agent sees it reachable', async () => {
    const client = engine();
    const port = await freePort();
    const def = definition('ssh', port);
    const id = await client.createContainer(def);
    await client.startContainer(id);
    const reach = await waitReachable(client, id, def.ports, { bindAddress: '127.0.0.1', timeoutMs: 3000 });
    expect(reach.problem).toBe('');
    expect(reach.details?.state).toBe('running');
    await client.stopContainer(id, 1);
    // Stopped: the port no longer answers, and the wait says why.
    const after = await waitReachable(client, id, def.ports, { bindAddress: '127.0.0.1', timeoutMs: 700 });
    expect(after.problem).toMatch(/已停止|SSH/);
  });

  it('sends the events the agent maps, filtered by label', async () => {
    const client = engine();
    const seen: EngineEvent[] = [];
    const other: EngineEvent[] = [];
    const handle = await client.streamEvents([MANAGED_FILTER], (e) => seen.push(e));
    const none = await client.streamEvents(['no.such=label'], (e) => other.push(e));
    expect(client.openStreams().events).toBe(2);
    const id = await client.createContainer(definition('ev', await freePort()));
    await client.startContainer(id);
    client.crash(id, 137);
    await client.removeContainer(id, true);
    const mapped = seen.map(containerEventFrom).filter((e) => e !== undefined);
    expect(mapped.map((e) => [e.containerId, e.action, e.state])).toEqual([
      ['ev', 'create', 'created'],
      ['ev', 'start', 'running'],
      ['ev', 'oom', 'unknown'],
      ['ev', 'die', 'exited'],
      ['ev', 'destroy', 'not_found'],
    ]);
    expect(mapped.find((e) => e.action === 'die')?.exitCode).toBe(137);
    expect(other).toEqual([]);
    handle.close();
    none.close();
    await handle.done;
    expect(client.openStreams().events).toBe(0);
  });

  it('streams logs with tail, since and follow; a followed stream ends when the container stops', async () => {
    const client = engine();
    const id = await client.createContainer(definition('logs', await freePort()));
    await client.startContainer(id); // writes "gpucloud-logs started"
    client.appendLog(id, 'stdout', 'one');
    client.appendLog(id, 'stderr', 'two');
    const read = async (options: Parameters<MemoryContainerClient['streamLogs']>[1]) => {
      const got: LogMessage[] = [];
      const h = await client.streamLogs(id, options, (m) => got.push(m));
      return { got, h };
    };
    const tail = await read({ follow: false, tail: 2, since: '' });
    await tail.h.done;
    expect(tail.got.map((m) => [m.stream, m.data.toString()])).toEqual([
      ['stdout', 'one\n'],
      ['stderr', 'two\n'],
    ]);
    // Timestamps grow strictly; `since` of the second one skips the first.
    const [first, second] = tail.got;
    expect(second!.timeNs > first!.timeNs).toBe(true);
    expect(first!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    const secondSince = `${second!.timeNs / 1_000_000_000n}.${(second!.timeNs % 1_000_000_000n).toString().padStart(9, '0')}`;
    const since = await read({ follow: false, tail: 'all', since: secondSince });
    await since.h.done;
    expect(since.got.map((m) => m.data.toString())).toEqual(['two\n']);

    const follow = await read({ follow: true, tail: 0, since: '' });
    await new Promise((r) => setTimeout(r, 5));
    expect(client.openStreams().logs).toBe(1);
    client.appendLog(id, 'stdout', 'three');
    // Paused (backpressure): held, in order, and the end waits behind them.
    follow.h.pause?.();
    client.appendLog(id, 'stdout', 'four');
    await client.stopContainer(id, 1);
    expect(follow.got.map((m) => m.data.toString())).toEqual(['three\n']);
    expect(client.openStreams().logs).toBe(1);
    follow.h.resume?.();
    await follow.h.done;
    expect(follow.got.map((m) => m.data.toString())).toEqual(['three\n', 'four\n']);
    expect(client.openStreams().logs).toBe(0);
  });

  it('runs execs in running containers only, through the handler', async () => {
    const client = engine({
      exec: ({ command, stdin }) => ({
        exitCode: command[0] === 'false' ? 1 : 0,
        stdout: stdin ?? '',
        stderr: '',
      }),
    });
    const id = await client.createContainer(definition('ex', await freePort()));
    await expect(client.exec(id, ['true'])).rejects.toMatchObject({ code: 'FAILED_PRECONDITION' });
    await client.startContainer(id);
    expect(await client.exec(id, ['cat'], 'hello\n')).toEqual({ exitCode: 0, stdout: 'hello\n', stderr: '' });
    expect((await client.exec(id, ['false'])).exitCode).toBe(1);
    expect(client.execs.map((e) => e.command[0])).toEqual(['cat', 'false']);
  });

  it('pulls only what its registry offers, commits and removes images in use as Docker does', async () => {
    const client = engine({ registry: [{ ref: 'library/debian:12', sizeBytes: 1000 }] });
    expect(await client.imageExists('library/debian:12')).toBe(false);
    const progress: number[] = [];
    await client.pullImage('library/debian:12', undefined, (p) => progress.push(p.current));
    expect(progress.at(-1)).toBe(1000);
    expect(await client.inspectImage('library/debian:12')).toMatchObject({ command: ['bash'] });
    await expect(client.pullImage('nope/nope:1', undefined, () => undefined)).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
    });
    const id = await client.createContainer(definition('cm', await freePort()));
    const imageId = await client.commitContainer(id, 'gpucloud-commit', 'cm-1');
    expect(imageId).toMatch(/^sha256:/);
    expect(await client.imageExists('gpucloud-commit:cm-1')).toBe(true);
    await expect(client.removeImage(IMAGE)).rejects.toBeInstanceOf(AgentError);
    await client.removeContainer(id, true);
    expect(await client.removeImage(IMAGE)).toBe(true);
    expect(await client.removeImage(IMAGE)).toBe(false);
    expect((await client.listImages()).flatMap((i) => i.tags).sort()).toEqual([
      'gpucloud-commit:cm-1',
      'library/debian:12',
    ]);
  });

  it('fails every call as an unreachable engine while it is down', async () => {
    const client = engine();
    client.available = false;
    await expect(client.version()).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(client.listContainers({ all: true, labels: [] })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    client.available = true;
    expect((await client.version()).version).toMatch(/memory/);
  });
});
