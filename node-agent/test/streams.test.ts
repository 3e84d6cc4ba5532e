import type {
  AgentEvent__Output,
  ConsoleOutput__Output,
  ContainerInfo__Output,
  LogChunk__Output,
} from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, startTestAgent, type TestAgent, testSpec, unaryCall } from './helpers.js';

/** Resolves with the first item `match` accepts; rejects on a stream error. */
function firstMatch<T>(
  stream: grpc.ClientReadableStream<T> | grpc.ClientDuplexStream<unknown, T>,
  match: (item: T) => boolean,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onData = (item: T) => {
      if (match(item)) {
        stream.off('data', onData);
        resolve(item);
      }
    };
    stream.on('data', onData);
    stream.on('error', reject);
  });
}

describe('streams', () => {
  let t: TestAgent;
  let container: ContainerInfo__Output;
  beforeAll(async () => {
    t = await startTestAgent({ reconcileIntervalMs: 500 });
    const command = ['sh', '-c', 'echo to-stdout; echo to-stderr >&2; exec sleep 600'];
    container = await createRequest(t, { spec: testSpec(t, { command }), start: true, rootPassword: 'pw' });
    expect(container.startError).toBe('');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('follows the logs (stdout and stderr apart) and ends when the client cancels', async () => {
    const call = t.client.streamLogs({ containerId: container.containerId, follow: true }, t.md);
    let stdout = '';
    let stderr = '';
    call.on('data', (chunk: LogChunk__Output) => {
      if (chunk.stream === 'STDERR') stderr += chunk.data.toString();
      else stdout += chunk.data.toString();
    });
    await firstMatch(call, () => /to-stdout/.test(stdout) && /to-stderr/.test(stderr));
    expect(stdout).not.toContain('to-stderr');
    // Our init's own lines come before the image's command.
    expect(stdout).toMatch(/\[gpucloud\] SSH 服务监听端口 22\n[\s\S]*to-stdout/);
    const ended = new Promise<grpc.ServiceError>((resolve) => call.on('error', resolve));
    call.cancel();
    expect((await ended).code).toBe(grpc.status.CANCELLED);
    // The agent still serves after the cancel.
    await unaryCall((cb) => t.client.inspectContainer({ containerId: container.containerId }, t.md, cb));
  });

  it('sends the tail without follow and ends by itself', async () => {
    const call = t.client.streamLogs({ containerId: container.containerId, follow: false, tail: -1 }, t.md);
    let text = '';
    call.on('data', (chunk: LogChunk__Output) => {
      text += chunk.data.toString();
    });
    await new Promise<void>((resolve, reject) => {
      call.on('end', resolve);
      call.on('error', reject);
    });
    expect(text).toContain('to-stdout\n');
  });

  it('refuses logs of an unknown container', async () => {
    const call = t.client.streamLogs({ containerId: 'no-such-container', follow: true }, t.md);
    const err = await new Promise<grpc.ServiceError>((resolve) => call.on('error', resolve));
    expect(err.code).toBe(grpc.status.NOT_FOUND);
  });

  it('watches heartbeats, GPU samples, reconcile reports and container events until cancelled', async () => {
    const call = t.client.watchEvents({ heartbeatIntervalMs: 200, gpuSampleIntervalMs: 200 }, t.md);
    const heartbeat = await firstMatch(call, (e: AgentEvent__Output) => e.event === 'heartbeat');
    expect(heartbeat.heartbeat?.dockerAvailable).toBe(true);
    expect(heartbeat.heartbeat?.runningContainers).toBeGreaterThanOrEqual(1);
    const sample = await firstMatch(call, (e: AgentEvent__Output) => e.event === 'gpuSample');
    expect(sample.gpuSample?.gpus).toHaveLength(8);
    const report = await firstMatch(call, (e: AgentEvent__Output) => e.event === 'reconcile');
    expect(report.reconcile?.containers.map((c) => c.containerId)).toContain(container.containerId);

    const spec = testSpec(t);
    const started = firstMatch(
      call,
      (e: AgentEvent__Output) =>
        e.container?.containerId === spec.containerId && e.container?.action === 'start',
    );
    await createRequest(t, { spec, start: true });
    expect((await started).container?.state).toBe('CONTAINER_STATE_RUNNING');
    const died = firstMatch(
      call,
      (e: AgentEvent__Output) =>
        e.container?.containerId === spec.containerId && e.container?.action === 'die',
    );
    await unaryCall((cb) =>
      t.client.stopContainer({ containerId: spec.containerId, timeoutSeconds: 1 }, t.md, cb),
    );
    expect((await died).container?.state).toBe('CONTAINER_STATE_EXITED');

    const ended = new Promise<grpc.ServiceError>((resolve) => call.on('error', resolve));
    call.cancel();
    expect((await ended).code).toBe(grpc.status.CANCELLED);
  });

  it('opens a console: runs commands, resizes, interrupts and reports the exit code', async () => {
    const call = t.client.console(t.md);
    let output = '';
    const exit = new Promise<number>((resolve, reject) => {
      call.on('data', (out: ConsoleOutput__Output) => {
        if (out.output === 'data' && out.data) output += out.data.toString();
        if (out.output === 'exitCode') resolve(out.exitCode ?? -1);
      });
      call.on('error', reject);
    });
    const waitFor = async (pattern: RegExp) => {
      const until = Date.now() + 10_000;
      while (!pattern.test(output)) {
        if (Date.now() > until)
          throw new Error(`console never printed ${pattern}; got ${JSON.stringify(output)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    call.write({ open: { containerId: container.containerId, cols: 80, rows: 24 } });
    call.write({ stdin: Buffer.from('echo sum=$((40+2))\n') });
    await waitFor(/sum=42/);
    call.write({ resize: { cols: 100, rows: 40 } });
    // The resize reaches the terminal on its own path: ask again until the new size shows.
    for (let tries = 0; !/40 100/.test(output) && tries < 20; tries++) {
      call.write({ stdin: Buffer.from('stty size\n') });
      await new Promise((r) => setTimeout(r, 250));
    }
    await waitFor(/40 100/);
    // Interrupt once the line runs (a busy machine may take a while to start it).
    call.write({ stdin: Buffer.from('echo started-$((3+4)); sleep 30; echo not-interrupted\n') });
    await waitFor(/started-7/);
    call.write({ interrupt: true });
    call.write({ stdin: Buffer.from('echo after-$((2*3))\n') });
    await waitFor(/after-6/);
    call.write({ stdin: Buffer.from('exit 3\n') });
    expect(await exit).toBe(3);
    expect(output).not.toMatch(/(^|\n)not-interrupted/); // only the typed command line has it
    await new Promise<void>((resolve) => call.on('end', resolve));
  });

  it('runs interactive programs: top redraws and quits on q, vi edits and saves a file', async () => {
    const call = t.client.console(t.md);
    let output = '';
    call.on('data', (out: ConsoleOutput__Output) => {
      if (out.output === 'data' && out.data) output += out.data.toString();
    });
    const ended = new Promise<void>((resolve, reject) => {
      call.on('end', resolve);
      call.on('error', reject);
    });
    const waitFor = async (pattern: RegExp, from = 0) => {
      const until = Date.now() + 10_000;
      while (!pattern.test(output.slice(from))) {
        if (Date.now() > until)
          throw new Error(`console never printed ${pattern}; got ${JSON.stringify(output.slice(-500))}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const type = (text: string) => call.write({ stdin: Buffer.from(text) });
    call.write({ open: { containerId: container.containerId, cols: 100, rows: 30 } });
    type('echo shell-$((1+1))\n');
    await waitFor(/shell-2/);

    let mark = output.length;
    type('top -d 1\n');
    // A full-screen program: homes the cursor, then draws its header and process table.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal escape is what is checked
    await waitFor(/\x1b\[H[\s\S]*Mem:[\s\S]*PID/, mark);
    mark = output.length;
    await waitFor(/Mem:/, mark); // and redraws it every second
    type('q');
    mark = output.length;
    type('echo after-top-$((2+2))\n');
    await waitFor(/after-top-4/, mark);

    mark = output.length;
    type('vi /tmp/from-vi.txt\n');
    await waitFor(/- \/tmp\/from-vi\.txt/, mark); // vi's status line (not the typed command)
    mark = output.length;
    type('ihello from vi');
    await waitFor(/hello from vi/, mark); // vi read and drew it
    // Escape on its own: followed at once by more keys it would read as an escape sequence.
    await new Promise((r) => setTimeout(r, 300));
    type('\x1b');
    await new Promise((r) => setTimeout(r, 300));
    mark = output.length;
    type(':wq\n');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: vi leaving the alternate screen
    await waitFor(/\x1b\[\?1049l/, mark);
    mark = output.length;
    type('cat /tmp/from-vi.txt; exit\n');
    await waitFor(/hello from vi/, mark);
    await ended;
  });

  it('lets what was typed finish when the viewer closes its side, and reports the exit code', async () => {
    const call = t.client.console(t.md);
    let output = '';
    const exit = new Promise<number>((resolve, reject) => {
      call.on('data', (out: ConsoleOutput__Output) => {
        if (out.output === 'data' && out.data) output += out.data.toString();
        if (out.output === 'exitCode') resolve(out.exitCode ?? -1);
      });
      call.on('error', reject);
    });
    call.write({ open: { containerId: container.containerId, command: ['/bin/sh'], cols: 80, rows: 24 } });
    call.write({ stdin: Buffer.from('echo bye-$((1+1)); exit 4\n') });
    call.end();
    expect(await exit).toBe(4);
    expect(output).toMatch(/bye-2/);
  });

  it('hangs the shell up (and what runs in it) when the viewer goes away', async () => {
    const shells = async () => {
      const exec = await t.docker
        .getContainer(container.dockerId)
        .exec({ Cmd: ['ps', '-o', 'args'], AttachStdout: true });
      const stream = await exec.start({ hijack: true, stdin: false });
      let out = '';
      stream.on('data', (d: Buffer) => {
        out += d.toString();
      });
      await new Promise((r) => stream.on('end', r));
      return out.split('\n').filter((l) => l.includes('sleep 321') || l.includes('/bin/sh -l')).length;
    };
    const call = t.client.console(t.md);
    let output = '';
    call.on('data', (out: ConsoleOutput__Output) => {
      if (out.data) output += out.data.toString();
    });
    call.on('error', () => undefined);
    call.write({ open: { containerId: container.containerId, cols: 80, rows: 24 } });
    call.write({ stdin: Buffer.from('echo started-$((3*3)); sleep 321\n') });
    const until = Date.now() + 10_000;
    while (!output.includes('started-9') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(await shells()).toBe(2);
    call.cancel();
    const deadline = Date.now() + 10_000;
    while ((await shells()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await shells()).toBe(0);
  });

  it('refuses a console whose first message is not open', async () => {
    const call = t.client.console(t.md);
    const err = new Promise<grpc.ServiceError>((resolve) => call.on('error', resolve));
    call.write({ stdin: Buffer.from('ls\n') });
    expect((await err).code).toBe(grpc.status.INVALID_ARGUMENT);
  });
});
