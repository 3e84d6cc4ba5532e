// A container's log followed across its agent's restarts (升级 restarts the agent; containers keep
// running and keep writing). The agent's stream is read with timestamps; each line's timestamp
// is taken off before the viewer gets it and remembered. When the stream ends while the
// container still runs (the agent shut down: it ends its streams cleanly) or breaks with
// UNAVAILABLE/CANCELLED (the agent is gone), StreamLogs is opened again with `since` a little
// before the last line sent, for up to RESUME_WINDOW_MS of failed tries. `since` is inclusive
// (the agent keeps lines at or after it, to the nanosecond), so the lines at or before the last
// one sent come again: per output stream, a line older than the last one sent, or of the same
// instant and text, is dropped. Nothing is sent twice and nothing written meanwhile is lost, as
// long as Docker still has it.
import type { ContainerInfo__Output, LogChunk__Output, StreamLogsRequest } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { AgentCallError } from '../../agents/agent-client.js';

/** How long failed re-opens are tried before the viewer is told the stream broke. */
export const RESUME_WINDOW_MS = 30_000;
const RETRY_DELAY_MS = 500;
/** A re-opened stream that lived this long without breaking counts as resumed (a quiet log sends nothing). */
const SETTLED_AFTER_MS = 5000;
/** stdout and stderr reach the log file slightly out of order: a re-open starts this far back. */
const RESUME_MARGIN_NS = 1_000_000_000n;

/** `2026-11-25T17:25:04.123456789Z ` at the start of a line (Docker's RFC 3339, UTC). */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z /;

/** Nanoseconds since the epoch of a Docker timestamp's parts; undefined when not one. */
function timeNs(seconds: string, fraction: string | undefined): bigint | undefined {
  const ms = Date.parse(`${seconds}Z`);
  if (Number.isNaN(ms)) return undefined;
  return BigInt(ms) * 1_000_000n + BigInt((fraction ?? '').padEnd(9, '0'));
}

export interface LogLine {
  stream: string;
  data: Buffer;
}

/**
 * Per output stream: the newest timestamp sent and the lines sent at exactly that instant. Takes
 * the timestamps off a chunk's lines and drops the lines sent already.
 */
export class LogLineCursor {
  private readonly last = new Map<string, { ns: bigint; sent: Set<string> }>();

  /** The chunk without timestamps and without lines sent before; empty when nothing is new. */
  accept(chunk: LogLine): Buffer {
    const text = chunk.data.toString('utf8');
    const out: string[] = [];
    let at = 0;
    while (at < text.length) {
      const nl = text.indexOf('\n', at);
      const end = nl < 0 ? text.length : nl + 1;
      const line = text.slice(at, end);
      at = end;
      const m = TIMESTAMP.exec(line);
      const ns = m ? timeNs(m[1] as string, m[2]) : undefined;
      if (!m || ns === undefined) {
        out.push(line); // not a line of its own (the rest of a long message): as it came
        continue;
      }
      const body = line.slice(m[0].length);
      const last = this.last.get(chunk.stream);
      if (!last || ns > last.ns) {
        this.last.set(chunk.stream, { ns, sent: new Set([body]) });
      } else if (ns < last.ns || last.sent.has(body)) {
        continue; // sent already
      } else {
        last.sent.add(body);
      }
      out.push(body);
    }
    return Buffer.from(out.join(''), 'utf8');
  }

  /** The `since_unix_ms` of a re-open: a margin before the oldest stream's last line; 0 when none was sent. */
  resumeSinceMs(): number {
    let oldest: bigint | undefined;
    for (const { ns } of this.last.values()) if (oldest === undefined || ns < oldest) oldest = ns;
    if (oldest === undefined) return 0;
    const from = oldest - RESUME_MARGIN_NS;
    return Number(from / 1_000_000n);
  }

  get anySent(): boolean {
    return this.last.size > 0;
  }
}

export interface ResumableLogOptions {
  containerId: string;
  /** Lines of the first read (the viewer's `tail`). */
  tail: number;
  /** StreamLogs on the container's node. */
  open(request: StreamLogsRequest): grpc.ClientReadableStream<LogChunk__Output>;
  /** InspectContainer on the node (whether the container still writes to its log). */
  inspect(): Promise<Pick<ContainerInfo__Output, 'state'>>;
  onData(line: LogLine): void;
  /** The log is over (the container stopped): close the viewer's socket normally. */
  onEnd(): void;
  /** The stream broke for good: tell the viewer why. */
  onError(detail: string): void;
  resumeWindowMs?: number;
}

const RESUMABLE = new Set([grpc.status.UNAVAILABLE, grpc.status.CANCELLED, grpc.status.DEADLINE_EXCEEDED]);

/** The agent's log stream of one viewer, re-opened across agent restarts. */
export class ResumableLogStream {
  private readonly cursor = new LogLineCursor();
  private call: grpc.ClientReadableStream<LogChunk__Output> | undefined;
  private closed = false;
  private paused = false;
  /** While re-opens fail: until when they are tried. */
  private resumeUntil: number | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly windowMs: number;

  constructor(private readonly options: ResumableLogOptions) {
    this.windowMs = options.resumeWindowMs ?? RESUME_WINDOW_MS;
    this.connect(false);
  }

  pause(): void {
    this.paused = true;
    this.call?.pause();
  }

  resume(): void {
    this.paused = false;
    this.call?.resume();
  }

  /** The viewer left. */
  close(): void {
    this.closed = true;
    clearTimeout(this.settleTimer);
    clearTimeout(this.retryTimer);
    this.call?.cancel();
    this.call = undefined;
  }

  private connect(resumed: boolean): void {
    if (this.closed) return;
    const since = resumed ? this.cursor.resumeSinceMs() : 0;
    const request: StreamLogsRequest = {
      containerId: this.options.containerId,
      follow: true,
      timestamps: true,
      // A re-open reads everything from `since`; before any line was sent, the tail again.
      tail: resumed && since > 0 ? -1 : this.options.tail,
      ...(since > 0 ? { sinceUnixMs: since } : {}),
    };
    const call = this.options.open(request);
    this.call = call;
    if (this.paused) call.pause();
    let finished = false;
    if (resumed) {
      clearTimeout(this.settleTimer);
      this.settleTimer = setTimeout(() => {
        if (this.call === call) this.resumeUntil = undefined;
      }, SETTLED_AFTER_MS);
      this.settleTimer.unref?.();
    }
    call.on('data', (chunk: LogChunk__Output) => {
      if (this.call !== call) return;
      this.resumeUntil = undefined;
      const stream = String(chunk.stream);
      const data = this.cursor.accept({ stream, data: chunk.data });
      if (data.length > 0) this.options.onData({ stream, data });
    });
    call.on('error', (err: grpc.ServiceError) => {
      if (finished || this.call !== call || this.closed) return;
      finished = true;
      if (RESUMABLE.has(err.code)) this.broken(err.details || err.message);
      else this.fail(err.details || err.message);
    });
    call.on('end', () => {
      if (finished || this.call !== call || this.closed) return;
      finished = true;
      void this.ended();
    });
  }

  /** The agent ended the stream: the log is over, unless the container still runs (the agent left). */
  private async ended(): Promise<void> {
    let running: boolean;
    try {
      running = (await this.options.inspect()).state === 'CONTAINER_STATE_RUNNING';
    } catch (err) {
      if (this.closed) return;
      if (err instanceof AgentCallError && (err.unreachable || err.code === grpc.status.CANCELLED)) {
        this.broken(err.details);
        return;
      }
      this.options.onEnd();
      return;
    }
    if (this.closed) return;
    if (running) this.broken('the agent ended the stream');
    else this.options.onEnd();
  }

  /** The agent went away (a restart): open again, for up to the window's length of failures. */
  private broken(detail: string): void {
    if (this.closed) return;
    this.call = undefined;
    const now = Date.now();
    this.resumeUntil ??= now + this.windowMs;
    if (now > this.resumeUntil) {
      this.fail(detail);
      return;
    }
    this.retryTimer = setTimeout(() => this.connect(true), RETRY_DELAY_MS);
  }

  private fail(detail: string): void {
    if (this.closed) return;
    this.close();
    this.options.onError(detail);
  }
}
