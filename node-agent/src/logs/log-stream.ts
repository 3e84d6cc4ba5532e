// StreamLogs: the container's stdout and stderr from Docker, from the tail or everything,
// optionally following. Docker's json-file follow is not exact across a log rotation: Docker
// 20.10 sends part of the rotated file again, and a follow may end while the container still
// runs. So the stream reads with timestamps, drops what it already sent (LogCursor), resumes a
// follow that ended early with `since`, and when the container stops reads once more from the
// last message: every line reaches the viewer once, in order, as long as Docker still has it.
import type { ContainerService } from '../containers/container-service.js';
import type { LogMessage, LogOptions, OutputStream, StreamHandle } from '../docker/container-client.js';
import { sinceParameter } from '../docker/log-frames.js';

export const DEFAULT_TAIL_LINES = 200;
/** Messages of stdout and stderr may reach the file slightly out of order; resume this far back. */
const RESUME_MARGIN_NS = 1_000_000_000n;
const RESUME_DELAY_MS = 250;
/** Resumes in a row that brought nothing new before a broken stream fails the viewer's call. */
const MAX_FAILED_RESUMES = 3;

export interface LogRequest {
  containerId: string;
  follow: boolean;
  /** 0 = the default (200 lines), negative = everything. */
  tail: number;
  timestamps: boolean;
  sinceUnixMs: number;
}

export interface LogOutput {
  stream: OutputStream;
  data: Buffer;
}

/** Per output stream: the newest timestamp sent, and the messages sent at exactly that time. */
export class LogCursor {
  private readonly last = new Map<OutputStream, { timeNs: bigint; sent: Buffer[] }>();

  /** True when the message is new (and records it); false when it was sent already. */
  accept(message: LogMessage): boolean {
    if (!message.timestamp) return true; // nothing to compare with (TTY, an engine's error text)
    const last = this.last.get(message.stream);
    if (!last || message.timeNs > last.timeNs) {
      this.last.set(message.stream, { timeNs: message.timeNs, sent: [message.data] });
      return true;
    }
    // One stream's messages are written in time order: an older one is a repeat.
    if (message.timeNs < last.timeNs) return false;
    if (last.sent.some((data) => data.equals(message.data))) return false;
    last.sent.push(message.data);
    return true;
  }

  /** Where a resumed read starts; undefined when nothing was sent yet. */
  resumeFromNs(): bigint | undefined {
    let oldest: bigint | undefined;
    for (const { timeNs } of this.last.values()) if (oldest === undefined || timeNs < oldest) oldest = timeNs;
    return oldest === undefined ? undefined : oldest - RESUME_MARGIN_NS;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function openLogStream(
  containers: ContainerService,
  request: LogRequest,
  onOutput: (output: LogOutput) => void,
  resumeDelayMs = RESUME_DELAY_MS,
): Promise<StreamHandle> {
  const { client } = containers.deps;
  const details = await containers.get(request.containerId);
  const cursor = new LogCursor();
  const deliver = (message: LogMessage) => {
    if (!cursor.accept(message)) return;
    const data =
      request.timestamps && message.timestamp
        ? Buffer.concat([Buffer.from(`${message.timestamp} `), message.data])
        : message.data;
    onOutput({ stream: message.stream, data });
  };
  const first: LogOptions = {
    follow: request.follow,
    tail: request.tail === 0 ? DEFAULT_TAIL_LINES : request.tail < 0 ? 'all' : request.tail,
    since: request.sinceUnixMs > 0 ? sinceParameter(BigInt(request.sinceUnixMs) * 1_000_000n) : '',
  };
  let current = await client.streamLogs(details.dockerId, first, deliver);
  let closed = false;

  /** After Docker ended a follow: resume while the container runs, else read what is left and end. */
  const followToTheEnd = async () => {
    let failures = 0;
    for (;;) {
      const before = cursor.resumeFromNs();
      try {
        await current.done;
        failures = 0;
      } catch (err) {
        // A broken connection is resumed like an early end, unless it breaks again at once.
        if (closed) return;
        failures = cursor.resumeFromNs() === before ? failures + 1 : 1;
        if (failures > MAX_FAILED_RESUMES) throw err;
      }
      if (closed) return;
      const now = await client.inspectContainer(details.dockerId);
      if (!now) return; // removed: nothing left to read
      const running = now.state === 'running';
      const from = cursor.resumeFromNs();
      const next: LogOptions =
        from === undefined
          ? { ...first, follow: running }
          : { follow: running, tail: 'all', since: sinceParameter(from) };
      if (running) await sleep(resumeDelayMs);
      if (closed) return;
      current = await client.streamLogs(details.dockerId, next, deliver);
      if (closed) current.close();
      if (!running) return current.done;
    }
  };
  // Without timestamps (a TTY container) a second read could not be told from the first.
  const done = request.follow && !details.tty ? followToTheEnd() : current.done;
  return {
    done,
    close: () => {
      closed = true;
      current.close();
    },
  };
}
