// StreamLogs: the container's stdout and stderr, from the tail or everything, optionally
// following. A json-file log the agent may read is read from its files (json-file-log.ts: exact
// across rotations); otherwise it comes through Docker's API, as below. Docker's json-file follow is not exact across a log rotation: Docker
// 20.10 sends part of the rotated file again, a follow may end while the container still runs,
// and a follower still reading a file when the log rotates twice more skips the file between
// (moby "file rotations were missed while following logs"). So the stream reads with timestamps,
// drops what it already sent (LogCursor), resumes a follow that ended early with `since`, reads
// once more from the last message when the container stops, and where two messages in a row are
// further apart in time than GAP_NS, asks Docker (a read of the log's tail, which reads the
// rotated files too) for what was written between them before it goes on: every line reaches
// the viewer once, in order, as long as Docker still has it.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { ContainerService } from '../containers/container-service.js';
import type { LogMessage, LogOptions, OutputStream, StreamHandle } from '../docker/container-client.js';
import { sinceParameter } from '../docker/log-frames.js';
import { jsonFileLog, openJsonFileLog } from './json-file-log.js';

export const DEFAULT_TAIL_LINES = 200;
/** Messages of stdout and stderr may reach the file slightly out of order; resume this far back. */
const RESUME_MARGIN_NS = 1_000_000_000n;
const RESUME_DELAY_MS = 250;
/** Resumes in a row that brought nothing new before a broken stream fails the viewer's call. */
const MAX_FAILED_RESUMES = 3;
/**
 * Two messages in a row further apart than this may have a skipped file between them: a file
 * takes a writer longer than this to fill (at 10 MB/s, 200 KB), so a skipped one leaves a gap.
 * The gap is checked only where a skip was possible: the later message was written after the
 * follow started (a rotation since, not the tail it began with) and no later than
 * GAP_CHECK_SLACK_NS after the earlier one reached the agent (the follower skips to a file that
 * was already being written when it finished the one before; a live follower of a quiet log
 * gets the next message after it was written, and checks nothing).
 */
export const GAP_NS = 20_000_000n;
const GAP_CHECK_SLACK_NS = 25_000_000n;
/** The first tail read of a gap check; doubled until it reaches back to the gap's start. */
const GAP_CHECK_FIRST_TAIL = 512;
const GAP_CHECK_MAX_TAIL = 1 << 22;
const GAP_CHECK_TIMEOUT_MS = 10_000;
/** A gap read that broke off (engine restart, connection cut) is tried again this often. */
const GAP_CHECK_ATTEMPTS = 3;

/** States in which a container may still write to its log: a follow goes on. */
const STILL_WRITING = new Set(['running', 'paused', 'restarting']);

const nowNs = () => BigInt(Date.now()) * 1_000_000n;

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

export interface LogStreamOptions {
  resumeDelayMs?: number;
  /** Gaps between messages wider than this are checked for skipped messages; 0n = never. */
  gapNs?: bigint;
  /** Read a json-file log from its files where the agent can (default); false = always the Docker API. */
  readFiles?: boolean;
}

/** Whether this process may read the files of the directory (the agent on the engine's host). */
function canReadDirectory(file: string): boolean {
  try {
    accessSync(path.dirname(file), constants.R_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface LogStreamHandle extends StreamHandle {
  /** Stops reading from Docker until `resume` (the viewer is behind). */
  pause(): void;
  resume(): void;
}

/**
 * One look at the log from the tail: the messages from `fromNs` (inclusive) until one at or after
 * `toNs`, or undefined when the last `tail` messages do not reach back to `fromNs`. It follows
 * (Docker's non-follow answer is read whole before anything can be looked at) and stops as soon
 * as it has what it needs, so it costs the gap, not the log.
 */
async function readTailBetween(
  containers: ContainerService,
  dockerId: string,
  fromNs: bigint,
  toNs: bigint,
  tail: number,
): Promise<LogMessage[] | 'not-reached' | 'broken'> {
  const messages: LogMessage[] = [];
  let reached: boolean | undefined;
  let complete = false;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const handle = await containers.deps.client.streamLogs(
    dockerId,
    { follow: true, tail, since: sinceParameter(fromNs) },
    (m) => {
      if (complete || reached === false || !m.timestamp) return;
      if (reached === undefined) reached = m.timeNs <= fromNs;
      if (!reached) return finish();
      if (m.timeNs >= toNs) {
        complete = true;
        return finish();
      }
      messages.push(m);
    },
  );
  const timer = setTimeout(finish, GAP_CHECK_TIMEOUT_MS);
  await Promise.race([finished, handle.done.catch(() => {})]);
  clearTimeout(timer);
  handle.close();
  if (reached === false) return 'not-reached';
  return complete ? messages : 'broken';
}

/**
 * What Docker holds from `fromNs` until before `toNs`, read from the tail (which reads the rotated
 * files too, unlike a follower that skipped one): tails of growing size until one reaches back.
 * Empty when none does (Docker no longer has it) or the reads keep breaking.
 */
export async function readBetween(
  containers: ContainerService,
  dockerId: string,
  fromNs: bigint,
  toNs: bigint,
  firstTail = GAP_CHECK_FIRST_TAIL,
): Promise<{ messages: LogMessage[]; tail: number }> {
  let broken = 0;
  for (let tail = firstTail; tail <= GAP_CHECK_MAX_TAIL; ) {
    const result = await readTailBetween(containers, dockerId, fromNs, toNs, tail);
    if (Array.isArray(result)) return { messages: result, tail };
    if (result === 'not-reached') tail *= 2;
    else if (++broken >= GAP_CHECK_ATTEMPTS) return { messages: [], tail };
  }
  return { messages: [], tail: GAP_CHECK_MAX_TAIL };
}

export async function openLogStream(
  containers: ContainerService,
  request: LogRequest,
  onOutput: (output: LogOutput) => void,
  options: LogStreamOptions | number = {},
): Promise<LogStreamHandle> {
  const {
    resumeDelayMs = RESUME_DELAY_MS,
    gapNs = GAP_NS,
    readFiles = true,
  } = typeof options === 'number' ? { resumeDelayMs: options } : options;
  const { client } = containers.deps;
  const details = await containers.get(request.containerId);
  const file = readFiles ? jsonFileLog(details, canReadDirectory) : undefined;
  if (file) {
    // The json-file log read from its files: exact across rotations, no gap checks needed.
    return openJsonFileLog(
      file,
      {
        follow: request.follow,
        tail: request.tail === 0 ? DEFAULT_TAIL_LINES : request.tail < 0 ? 'all' : request.tail,
        sinceNs: request.sinceUnixMs > 0 ? BigInt(request.sinceUnixMs) * 1_000_000n : 0n,
        // A TTY's output is not cut into lines: no timestamps, as through the Docker API.
        timestamps: request.timestamps && !details.tty,
        stillWriting: async () => {
          const now = await client.inspectContainer(details.dockerId);
          return now !== undefined && STILL_WRITING.has(now.state);
        },
      },
      onOutput,
    );
  }
  const cursor = new LogCursor();
  let closed = false;
  let paused = false;
  /** The newest timestamp sent (any stream), and when its message reached the agent. */
  let lastNs: bigint | undefined;
  let lastAtNs = 0n;
  /** When the Docker stream being read was asked for. */
  let openedAtNs = 0n;
  /** Messages (and when they came) in arrival order, from `head` on not sent yet. */
  let queue: [LogMessage, bigint][] = [];
  let head = 0;
  /** A gap before queue[head] is being checked: nothing goes out until it is filled. */
  let checking = false;
  /** The first tail size of the next gap check. */
  let gapTail = GAP_CHECK_FIRST_TAIL;
  let current: StreamHandle | undefined;

  const send = (message: LogMessage, atNs: bigint) => {
    if (closed || !cursor.accept(message)) return;
    if (message.timestamp && (lastNs === undefined || message.timeNs > lastNs)) {
      lastNs = message.timeNs;
      lastAtNs = atNs;
    }
    const data =
      request.timestamps && message.timestamp
        ? Buffer.concat([Buffer.from(`${message.timestamp} `), message.data])
        : message.data;
    onOutput({ stream: message.stream, data });
  };

  /** Whether a follower may have skipped messages between what went out last and `message`. */
  const mayHaveSkipped = (message: LogMessage) =>
    gapNs > 0n &&
    request.follow &&
    message.timestamp !== '' &&
    lastNs !== undefined &&
    message.timeNs - lastNs > gapNs &&
    message.timeNs >= openedAtNs &&
    message.timeNs <= lastAtNs + GAP_CHECK_SLACK_NS;

  /** Fills the gap before `next` with what Docker has between, then sends on. */
  const checkGap = (fromNs: bigint, next: LogMessage, nextAtNs: bigint) => {
    checking = true;
    readBetween(containers, details.dockerId, fromNs, next.timeNs, gapTail)
      .then(
        ({ messages, tail }) => {
          // A follower that is behind is behind again at the next gap: start near this size.
          gapTail = Math.max(GAP_CHECK_FIRST_TAIL, tail / 2);
          for (const m of messages) if (m.timeNs < next.timeNs) send(m, nextAtNs);
        },
        () => {
          // The check failed (container gone, engine busy): go on with what the follow gave.
        },
      )
      .finally(() => {
        checking = false;
        if (closed) return;
        // The gap before `next` is filled: `next` goes out unchecked, then what came after it.
        head += 1;
        send(next, nextAtNs);
        drain();
      });
  };

  const drain = () => {
    while (!checking && !closed && head < queue.length) {
      const [message, atNs] = queue[head] as [LogMessage, bigint];
      if (mayHaveSkipped(message)) {
        checkGap(lastNs as bigint, message, atNs);
        break;
      }
      head += 1;
      send(message, atNs);
    }
    if (head === queue.length) {
      queue = [];
      head = 0;
    } else if (head > 4096 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };

  const deliver = (message: LogMessage, atNs: bigint) => {
    if (closed) return;
    if (!checking && head === queue.length && !mayHaveSkipped(message)) {
      send(message, atNs); // the common case: nothing waits
      return;
    }
    queue.push([message, atNs]);
    drain();
  };

  const open = async (logOptions: LogOptions) => {
    openedAtNs = nowNs();
    const handle = await client.streamLogs(details.dockerId, logOptions, (m) => deliver(m, nowNs()));
    if (paused) handle.pause?.();
    return handle;
  };

  const first: LogOptions = {
    follow: request.follow,
    tail: request.tail === 0 ? DEFAULT_TAIL_LINES : request.tail < 0 ? 'all' : request.tail,
    since: request.sinceUnixMs > 0 ? sinceParameter(BigInt(request.sinceUnixMs) * 1_000_000n) : '',
  };
  current = await open(first);

  /** Waits until no gap check is running (the last messages must go out before the end). */
  const settled = async () => {
    while ((checking || head < queue.length) && !closed) await sleep(5);
  };

  /** After Docker ended a follow: resume while the container runs, else read what is left and end. */
  const followToTheEnd = async () => {
    let failures = 0;
    for (;;) {
      const before = cursor.resumeFromNs();
      try {
        await (current as StreamHandle).done;
        failures = 0;
      } catch (err) {
        // A broken connection is resumed like an early end, unless it breaks again at once.
        if (closed) return;
        failures = cursor.resumeFromNs() === before ? failures + 1 : 1;
        if (failures > MAX_FAILED_RESUMES) throw err;
      }
      await settled();
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
      current = await open(next);
      if (closed) current.close();
      if (!running) {
        await current.done;
        return settled();
      }
    }
  };
  // Without timestamps (a TTY container) a second read could not be told from the first.
  const done = request.follow && !details.tty ? followToTheEnd() : current.done;
  return {
    done,
    close: () => {
      closed = true;
      queue = [];
      head = 0;
      current?.close();
    },
    pause: () => {
      paused = true;
      current?.pause?.();
    },
    resume: () => {
      paused = false;
      current?.resume?.();
    },
  };
}
