import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import type { LogChunk__Output } from '@gpucloud/proto';
import type * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, startTestAgent, type TestAgent, testSpec, withoutInitLines } from './helpers.js';

// `seq` writes as fast as Docker takes it: 40,000 lines of ~77 bytes of json-file are ~3.1 MB,
// 3 rotations of 1 MB files, and all of it stays on disk (4 files). Docker's own follower falls
// behind such a writer and skips a file when the log rotates twice while it still reads one; the
// agent reads the files itself where it may (or, through Docker's API, notices the gap and fetches
// what Docker skipped).
const LINES = 40_000;
const WRITER = ['sh', '-c', `sleep 1; seq 1 ${LINES}; echo finished; exec sleep 600`];

function canRead(dir: string): boolean {
  try {
    accessSync(dir, constants.R_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function follow(t: TestAgent, containerId: string) {
  const call = t.client.streamLogs({ containerId, follow: true, tail: -1 }, t.md);
  let text = '';
  let chunks = 0;
  let dockerStreams = 0;
  return new Promise<{ lines: string[]; chunks: number; dockerStreams: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      call.cancel();
      resolve({ lines: text.split('\n'), chunks, dockerStreams });
    }, 60_000);
    call.on('data', (chunk: LogChunk__Output) => {
      chunks += 1;
      dockerStreams = Math.max(dockerStreams, t.agent.openStreams().docker.logs);
      text += chunk.data.toString();
      if (text.endsWith('finished\n')) {
        clearTimeout(timer);
        call.cancel();
        resolve({ lines: text.split('\n').slice(0, -2), chunks, dockerStreams });
      }
    });
    call.on('error', (err: grpc.ServiceError) => {
      if (err.code !== 1) reject(err); // 1 = CANCELLED, by us
    });
    call.on('end', () => reject(new Error(`the log stream ended early:\n${text.slice(-300)}`)));
  });
}

describe('logs of a fast writer across json-file rotations', () => {
  let t: TestAgent;
  beforeAll(async () => {
    t = await startTestAgent({ logMaxSize: '1m', logMaxFiles: 4 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([1, 2, 3, 4, 5])('run %i: every line once, in order, in batches', async () => {
    const info = await createRequest(t, { spec: testSpec(t, { command: WRITER }), start: true });
    expect(info.startError).toBe('');
    const seen = await follow(t, info.containerId);
    const numbers = withoutInitLines(seen.lines).map(Number);
    const missing = numbers.length === 0 ? LINES : LINES - new Set(numbers).size;
    const outOfOrder = numbers.filter((n, i) => i > 0 && n !== (numbers[i - 1] as number) + 1).length;
    expect({ count: numbers.length, missing, outOfOrder, first: numbers[0], last: numbers.at(-1) }).toEqual({
      count: LINES,
      missing: 0,
      outOfOrder: 0,
      first: 1,
      last: LINES,
    });
    // Batched: far fewer gRPC messages than lines.
    expect(seen.chunks).toBeLessThan(LINES / 10);
    // Docker rotated at least 3 times: it keeps <id>-json.log.1 … .3 (where this user may look).
    const inspect = await t.docker.getContainer(info.dockerId).inspect();
    expect(inspect.HostConfig.LogConfig).toEqual({
      Type: 'json-file',
      Config: { 'max-size': '1m', 'max-file': '4' },
    });
    if (canRead(path.dirname(inspect.LogPath))) expect(existsSync(`${inspect.LogPath}.3`)).toBe(true);
    // Read from the json-file itself where the agent may read it (here, as root), not through Docker's API.
    if (canRead(path.dirname(inspect.LogPath))) expect(seen.dockerStreams).toBe(0);
  });
});
