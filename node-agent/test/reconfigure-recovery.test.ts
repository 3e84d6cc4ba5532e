// A recreate (ReconfigureContainer) interrupted by the agent's own death (SIGKILL): the states
// such a crash leaves are made by hand with Docker, with the record the agent writes first,
// and the next agent start has to put each container back.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ContainerInfo__Output } from '@gpucloud/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECREATES_DIR, RecreateJournal } from '../src/containers/recreate-journal.js';
import type { AgentRuntime } from '../src/index.js';
import {
  createRequest,
  execIn,
  freeHostPort,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
  uniqueId,
} from './helpers.js';

const COMMIT = 'gpucloud/commit';

describe('recovery of a recreate the agent died in', () => {
  const nodeName = uniqueId('node');
  let before: TestAgent;
  let after: TestAgent;
  let journal: RecreateJournal;
  const lines: string[] = [];
  /** What each case made, by case: the platform id and the Docker ids involved. */
  const made: Record<string, { containerId: string; oldId: string; newId?: string; port?: number }> = {};

  async function create(start: boolean, port?: number): Promise<ContainerInfo__Output> {
    const info = await createRequest(before, {
      spec: testSpec(before, {
        ports: port ? [{ containerPort: 22, hostPort: port, protocol: 'PROTOCOL_TCP', name: 'ssh' }] : [],
      }),
      rootPassword: 'pw-1',
      start,
    });
    expect(info.startError).toBe('');
    return info;
  }

  /** The agent's first steps: record, commit, stop, park; `wasRunning` as the record says. */
  async function park(info: ContainerInfo__Output, wasRunning: boolean, withRecord = true): Promise<void> {
    const parkedName = `gpucloud-${info.containerId}-superseded-1`;
    const commitRef = `${COMMIT}:${info.containerId}-1`;
    if (withRecord) {
      await journal.write({
        containerId: info.containerId,
        oldDockerId: info.dockerId,
        generation: 1,
        parkedName,
        wasRunning,
        commitRef,
      });
      await before.docker.getContainer(info.dockerId).commit({ repo: COMMIT, tag: `${info.containerId}-1` });
    }
    const old = before.docker.getContainer(info.dockerId);
    if ((await old.inspect()).State.Running) await old.stop({ t: 1 });
    await old.rename({ name: parkedName });
  }

  /** The new container as the agent makes it: the commit, the same labels, generation 1. */
  async function createNew(info: ContainerInfo__Output, start: boolean): Promise<string> {
    const labels = (await before.docker.getContainer(info.dockerId).inspect()).Config.Labels;
    const created = await before.docker.createContainer({
      name: `gpucloud-${info.containerId}`,
      Image: `${COMMIT}:${info.containerId}-1`,
      Entrypoint: ['sleep'],
      Cmd: ['3600'],
      Labels: { ...labels, 'gpucloud.generation': '1' },
    });
    if (start) await created.start();
    return created.id;
  }

  beforeAll(async () => {
    before = await startTestAgent({ nodeName });
    journal = new RecreateJournal(path.join(before.stateDir, RECREATES_DIR));

    // (a) parked and stopped, no new container yet; it was running, a file written before.
    const port = await freeHostPort();
    const a = await create(true, port);
    await execIn(before, a.dockerId, 'echo precious > /root/notes.txt');
    await park(a, true);
    made.a = { containerId: a.containerId, oldId: a.dockerId, port };

    // (b) parked, and the new container created (not started yet).
    const b = await create(true);
    await park(b, true);
    made.b = { containerId: b.containerId, oldId: b.dockerId, newId: await createNew(b, false) };

    // (c) the switch done (the new one runs, the old one removed), the record not yet.
    const c = await create(true);
    await park(c, true);
    const cNew = await createNew(c, true);
    await before.docker.getContainer(c.dockerId).remove({ force: true });
    await fs.mkdir(path.join(before.stateDir, 'access', c.containerId), { recursive: true });
    await fs.writeFile(
      path.join(before.stateDir, 'access', c.containerId, 'authorized_keys'),
      'ssh-ed25519 x\n',
    );
    made.c = { containerId: c.containerId, oldId: c.dockerId, newId: cNew };

    // (d) parked by an agent from before the record, no new container.
    const d = await create(true);
    await park(d, true, false);
    made.d = { containerId: d.containerId, oldId: d.dockerId };

    // The agent dies (SIGKILL: nothing of it runs any more); the next one has its state dir.
    before.client.close();
    await before.agent.close(0);
    const runtime: AgentRuntime = { log: (line) => lines.push(line) };
    after = await startTestAgent(
      { nodeName, stateDir: before.stateDir, volumeRoot: before.volumeRoot },
      runtime,
    );
  });
  afterAll(async () => {
    await after?.close();
    await before?.close(); // its containers, images of commits, volume root and state dir
  });

  const inspect = (containerId: string) =>
    unaryCall<ContainerInfo__Output>((cb) => after.client.inspectContainer({ containerId }, after.md, cb));
  const withId = async (containerId: string) =>
    (
      await after.docker.listContainers({
        all: true,
        filters: { label: [`gpucloud.container-id=${containerId}`] },
      })
    ).map((c) => ({ id: c.Id, name: c.Names[0], state: c.State }));
  const images = async (containerId: string) =>
    (await after.docker.listImages({ filters: { reference: [`${COMMIT}:${containerId}-*`] } })).flatMap(
      (i) => i.RepoTags ?? [],
    );

  it('writes the record root-only before anything changes', async () => {
    // The records are gone by now (below); one written the same way shows the file.
    await journal.write({
      containerId: 'probe',
      oldDockerId: 'x',
      generation: 1,
      parkedName: 'gpucloud-probe-superseded-1',
      wasRunning: false,
      commitRef: `${COMMIT}:probe-1`,
    });
    const stat = await fs.stat(journal.file('probe'));
    expect(stat.mode & 0o777).toBe(0o600);
    expect((await journal.list()).map((r) => r.containerId)).toEqual(['probe']);
    await journal.remove('probe');
    expect(await journal.list()).toEqual([]);
  });

  it('(a) puts a parked container back under its name, started, with its ports and files', async () => {
    const { containerId, oldId, port } = made.a ?? { containerId: '', oldId: '' };
    const info = await inspect(containerId);
    expect(info.dockerId).toBe(oldId);
    expect(info.state).toBe('CONTAINER_STATE_RUNNING');
    expect(info.ports.map((p) => p.hostPort)).toEqual([port]);
    expect((await execIn(after, oldId, 'cat /root/notes.txt')).trim()).toBe('precious');
    expect(await withId(containerId)).toEqual([
      { id: oldId, name: `/gpucloud-${containerId}`, state: 'running' },
    ]);
    expect(await images(containerId)).toEqual([]);
    expect(lines.filter((l) => l.includes(containerId))).toHaveLength(1);
  });

  it('(b) removes the new container and restores the old one', async () => {
    const { containerId, oldId } = made.b ?? { containerId: '', oldId: '' };
    expect(await withId(containerId)).toEqual([
      { id: oldId, name: `/gpucloud-${containerId}`, state: 'running' },
    ]);
    expect(await images(containerId)).toEqual([]);
    expect(lines.filter((l) => l.includes(containerId))).toEqual([expect.stringMatching(/new one removed/)]);
  });

  it('(c) leaves a completed switch as it is and clears what the start staged', async () => {
    const { containerId, newId } = made.c ?? { containerId: '', oldId: '' };
    expect(await withId(containerId)).toEqual([
      { id: newId, name: `/gpucloud-${containerId}`, state: 'running' },
    ]);
    expect(await images(containerId)).toEqual([`${COMMIT}:${containerId}-1`]);
    expect(await fs.readdir(path.join(after.agent.config.stateDir, 'access', containerId))).toEqual([]);
    expect(lines.filter((l) => l.includes(containerId))).toEqual([expect.stringMatching(/had completed/)]);
  });

  it('(d) renames a parked container without a record back, not started', async () => {
    const { containerId, oldId } = made.d ?? { containerId: '', oldId: '' };
    const info = await inspect(containerId);
    expect(info.dockerId).toBe(oldId);
    expect(info.state).toBe('CONTAINER_STATE_EXITED');
    expect(lines.filter((l) => l.includes(containerId))).toHaveLength(1);
  });

  it('leaves no record behind', async () => {
    expect(await fs.readdir(journal.dir)).toEqual([]);
  });

  it('a reconfigure that completes leaves no record', async () => {
    const { containerId } = made.a ?? { containerId: '' };
    const port = await freeHostPort();
    const reconfigured = await unaryCall<ContainerInfo__Output>((cb) =>
      after.client.reconfigureContainer(
        {
          containerId,
          setPorts: true,
          ports: [{ containerPort: 22, hostPort: port, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
          restartIfRunning: true,
        },
        after.md,
        cb,
      ),
    );
    expect(reconfigured.state).toBe('CONTAINER_STATE_RUNNING');
    expect(reconfigured.ports.map((p) => p.hostPort)).toEqual([port]);
    expect(await fs.readdir(journal.dir)).toEqual([]);
    expect((await execIn(after, reconfigured.dockerId, 'cat /root/notes.txt')).trim()).toBe('precious');
  });
});
