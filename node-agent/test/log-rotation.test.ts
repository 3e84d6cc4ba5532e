import type { LogChunk__Output } from '@gpucloud/proto';
import type * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DockerProxy, startDockerProxy } from './docker-proxy.js';
import { engineWithoutLogFiles } from './engine-without-log-files.js';
import {
  createRequest,
  eventually,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
  withoutInitLines,
} from './helpers.js';

// ~75 bytes per line in Docker's json-file: a 16 KiB file holds ~200 lines, so 4000 lines
// rotate the log about 20 times while only the last ~600 stay on disk.
const LINES = 4000;
const WRITER = [
  'sh',
  '-c',
  `sleep 1; i=0; while [ $i -lt ${LINES} ]; do echo "out $i"; ` +
    'case $i in *0) echo "err $i" >&2;; esac; i=$((i+1)); ' +
    'case $i in *00|*50) usleep 50000;; esac; done; echo finished; exec sleep 600',
];

/** Follows the logs over gRPC until `finished`; returns the lines per stream. */
function follow(t: TestAgent, containerId: string, timestamps = false, onText?: (stdout: string) => void) {
  const call = t.client.streamLogs({ containerId, follow: true, tail: -1, timestamps }, t.md);
  const text = { STDOUT: '', STDERR: '' };
  return new Promise<{ stdout: string[]; stderr: string[] }>((resolve, reject) => {
    call.on('data', (chunk: LogChunk__Output) => {
      text[chunk.stream] += chunk.data.toString();
      onText?.(text.STDOUT);
      if (text.STDOUT.includes('finished\n')) {
        call.cancel();
        resolve({
          stdout: text.STDOUT.split('\n').slice(0, -1),
          stderr: text.STDERR.split('\n').slice(0, -1),
        });
      }
    });
    call.on('error', (err: grpc.ServiceError) => {
      if (err.code !== 1) reject(err); // 1 = CANCELLED, by us
    });
    call.on('end', () => reject(new Error(`the log stream ended early:\n${text.STDOUT.slice(-300)}`)));
  });
}

/** Lines `<prefix> N` must be exactly `expected`, in order, each once. */
function expectEveryLineOnce(lines: string[], prefix: string, expected: number[]) {
  const numbers = withoutInitLines(lines).map((line) => Number(line.slice(prefix.length + 1)));
  const missing = expected.filter((n) => !numbers.includes(n));
  const repeated = numbers.filter((n, i) => numbers.indexOf(n) !== i);
  expect({ missing: missing.slice(0, 20), repeated: repeated.slice(0, 20) }).toEqual({
    missing: [],
    repeated: [],
  });
  expect(numbers).toEqual(expected);
}

/** Follows a container that writes 300 lines, stops it, and expects the stream to end after them. */
async function followUntilStopped(t: TestAgent) {
  const spec = testSpec(t, {
    command: ['sh', '-c', 'i=0; while [ $i -lt 300 ]; do echo "out $i"; i=$((i+1)); done; exec sleep 600'],
  });
  const { containerId } = await createRequest(t, { spec, start: true });
  const call = t.client.streamLogs({ containerId, follow: true, tail: -1 }, t.md);
  let text = '';
  call.on('data', (chunk: LogChunk__Output) => {
    text += chunk.data.toString();
  });
  const ended = new Promise<void>((resolve, reject) => {
    call.on('end', resolve);
    call.on('error', reject);
  });
  const until = Date.now() + 10_000;
  while (!text.includes('out 299\n') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  await unaryCall((cb) => t.client.stopContainer({ containerId, timeoutSeconds: 1 }, t.md, cb));
  await ended;
  expectEveryLineOnce(
    text.split('\n').slice(0, -1),
    'out',
    Array.from({ length: 300 }, (_, i) => i),
  );
  expect(t.agent.openStreams()).toEqual({ calls: 0, docker: { logs: 0, events: 0, consoles: 0 } });
}

describe('logs across json-file rotation', () => {
  let t: TestAgent;
  beforeAll(async () => {
    t = await startTestAgent({ logMaxSize: '16k', logMaxFiles: 3 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives the container the configured json-file limits', async () => {
    const info = await createRequest(t, { spec: testSpec(t, { command: ['true'] }), start: false });
    const inspect = await t.docker.getContainer(info.dockerId).inspect();
    expect(inspect.HostConfig.LogConfig).toEqual({
      Type: 'json-file',
      Config: { 'max-size': '16k', 'max-file': '3' },
    });
  });

  it('a follower sees every line exactly once and in order through many rotations', async () => {
    const spec = testSpec(t, { command: WRITER });
    const info = await createRequest(t, { spec, start: true });
    expect(info.startError).toBe('');
    const seen = await follow(t, info.containerId);

    const all = Array.from({ length: LINES }, (_, i) => i);
    expect(seen.stdout.pop()).toBe('finished');
    expectEveryLineOnce(seen.stdout, 'out', all);
    expectEveryLineOnce(
      seen.stderr,
      'err',
      all.filter((i) => i % 10 === 0),
    );

    // Docker rotated: what it still holds starts long after line 0.
    const kept = (await t.docker.getContainer(info.dockerId).logs({ stdout: true, follow: false, tail: -1 }))
      .toString('latin1')
      .match(/out \d+/g);
    expect(kept?.[0]).not.toBe('out 0');
    expect(kept?.length ?? 0).toBeLessThan(LINES / 3);
  });

  it('starts at since_unix_ms when the viewer gives one', async () => {
    const spec = testSpec(t, { command: ['sh', '-c', 'echo early; sleep 2; echo late; exec sleep 600'] });
    const info = await createRequest(t, { spec, start: true });
    const { containerId } = info;
    const read = (sinceUnixMs: number) =>
      new Promise<string>((resolve, reject) => {
        let text = '';
        const call = t.client.streamLogs({ containerId, follow: false, tail: -1, sinceUnixMs }, t.md);
        call.on('data', (chunk: LogChunk__Output) => {
          text += chunk.data.toString();
        });
        call.on('end', () => resolve(text));
        call.on('error', reject);
      });
    const appText = async (since: number) => withoutInitLines((await read(since)).split('\n')).join('\n');
    let seen = '';
    const both = await eventually(async () => {
      seen = await appText(0);
      return seen === 'early\nlate\n' ? true : undefined;
    }).catch(() => false);
    // What the stream gave, should it never be both lines (and nothing else).
    expect(both, `the logs read: ${JSON.stringify(seen)}; all: ${JSON.stringify(await read(0))}`).toBe(true);
    // Halfway between the two lines by Docker's own clock: a busy machine may delay either.
    const stamped = (await t.docker.getContainer(info.dockerId).logs({ stdout: true, timestamps: true }))
      .toString('latin1')
      .match(/\d{4}-\d\d-\d\dT[\d:.]+Z(?= (early|late)\n)/g)
      ?.map((ts) => Date.parse(ts));
    expect(stamped).toHaveLength(2);
    const [early = 0, late = 0] = stamped ?? [];
    const between = Math.round((early + late) / 2);
    expect(await appText(between)).toBe('late\n');
  });

  it('ends after the last line when the container stops', async () => {
    await followUntilStopped(t);
  });

  it('keeps Docker timestamps in order when the viewer asks for them', async () => {
    const spec = testSpec(t, { command: WRITER });
    const { containerId } = await createRequest(t, { spec, start: true });
    const seen = await follow(t, containerId, true);
    const stamps = withoutInitLines(seen.stdout).map((line) => line.split(' ')[0] ?? '');
    expect(stamps.every((s) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/.test(s))).toBe(true);
    expect([...stamps].sort()).toEqual(stamps);
    expectEveryLineOnce(
      seen.stdout.slice(0, -1).map((line) => line.slice(line.indexOf(' ') + 1)),
      'out',
      Array.from({ length: LINES }, (_, i) => i),
    );
  });
});

describe('logs through the Docker API when the Docker stream breaks', () => {
  let proxy: DockerProxy;
  let t: TestAgent;
  beforeAll(async () => {
    proxy = await startDockerProxy(inject('dockerHost'));
    t = await startTestAgent(
      { dockerHost: proxy.dockerHost, logMaxSize: '16k', logMaxFiles: 3 },
      { containerClient: engineWithoutLogFiles(proxy.dockerHost) },
    );
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  it('resumes where it was: no line lost, none repeated', async () => {
    const spec = testSpec(t, { command: WRITER });
    const { containerId } = await createRequest(t, { spec, start: true });
    const cuts: number[] = [];
    const seen = await follow(t, containerId, false, (stdout) => {
      const lines = stdout.split('\n').length - 1;
      if ((cuts.length === 0 && lines >= 1000) || (cuts.length === 1 && lines >= 2500)) {
        // Cut when a follow is open (not between a follow Docker ended and its resume).
        const cut = proxy.cutFollows();
        if (cut > 0) cuts.push(cut);
      }
    });
    expect(cuts).toHaveLength(2);
    // The first follow and one resume per cut (gap checks of the writer's pauses may add short ones).
    expect(proxy.followsOpened()).toBeGreaterThanOrEqual(3);
    expect(seen.stdout.pop()).toBe('finished');
    expectEveryLineOnce(
      seen.stdout,
      'out',
      Array.from({ length: LINES }, (_, i) => i),
    );
  });

  it('ends after the last line when the container stops', async () => {
    await followUntilStopped(t);
  });
});
