// Batches a log's messages into chunks of up to ~64 KB or ~15 ms for the gRPC stream, with
// backpressure: while the sink is full (a write answered false and no `drain` came yet) chunks
// wait here, and past `highWaterBytes` waiting the source is paused until they have gone.
import type { OutputStream } from '../docker/container-client.js';

export interface LogBatch {
  stream: OutputStream;
  data: Buffer;
}

export interface LogBatcherOptions {
  /** Writes one batch; false = the sink is full, wait for `drain()` before the next. */
  write: (batch: LogBatch) => boolean;
  /** Stop reading the source: too much waits. */
  pause: () => void;
  /** Go on reading the source. */
  resume: () => void;
  /** A batch is written once it holds this many bytes … */
  maxBatchBytes?: number;
  /** … or once its first message has waited this long. */
  maxDelayMs?: number;
  /** Bytes waiting (batched, not yet written) above which the source is paused. */
  highWaterBytes?: number;
}

export const MAX_BATCH_BYTES = 64 * 1024;
export const MAX_BATCH_DELAY_MS = 15;
export const HIGH_WATER_BYTES = 8 * 1024 * 1024;

export class LogBatcher {
  private readonly write: (batch: LogBatch) => boolean;
  private readonly pauseSource: () => void;
  private readonly resumeSource: () => void;
  private readonly maxBatchBytes: number;
  private readonly maxDelayMs: number;
  private readonly highWaterBytes: number;
  /** Complete batches waiting for the sink, oldest first. */
  private readonly ready: LogBatch[] = [];
  private readyBytes = 0;
  /** The batch being filled: its stream and parts. */
  private openStream: OutputStream | undefined;
  private openParts: Buffer[] = [];
  private openBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private blocked = false;
  private paused = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(options: LogBatcherOptions) {
    this.write = options.write;
    this.pauseSource = options.pause;
    this.resumeSource = options.resume;
    this.maxBatchBytes = options.maxBatchBytes ?? MAX_BATCH_BYTES;
    this.maxDelayMs = options.maxDelayMs ?? MAX_BATCH_DELAY_MS;
    this.highWaterBytes = options.highWaterBytes ?? HIGH_WATER_BYTES;
  }

  /** Bytes accepted and not yet written to the sink. */
  get pendingBytes(): number {
    return this.readyBytes + this.openBytes;
  }

  push(stream: OutputStream, data: Buffer): void {
    if (this.closed || data.length === 0) return;
    if (this.openStream !== undefined && this.openStream !== stream) this.seal();
    this.openStream = stream;
    this.openParts.push(data);
    this.openBytes += data.length;
    if (this.openBytes >= this.maxBatchBytes) {
      this.seal();
      this.pump();
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, this.maxDelayMs);
    }
    this.checkPressure();
  }

  /** Writes what is batched now (as far as the sink takes it). */
  flush(): void {
    this.seal();
    this.pump();
  }

  /** The sink took what it had: write what waits. */
  drain(): void {
    this.blocked = false;
    this.pump();
  }

  /** Drops what waits and stops the timer (the viewer left). */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.ready.length = 0;
    this.readyBytes = 0;
    this.openParts = [];
    this.openBytes = 0;
    this.wakeIdle();
  }

  /** Resolves once everything accepted has been written to the sink (or the batcher closed). */
  idle(): Promise<void> {
    this.flush();
    if (this.closed || this.pendingBytes === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wakeIdle(): void {
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private seal(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.openStream === undefined || this.openBytes === 0) return;
    const data = this.openParts.length === 1 ? (this.openParts[0] as Buffer) : Buffer.concat(this.openParts);
    this.ready.push({ stream: this.openStream, data });
    this.readyBytes += data.length;
    this.openParts = [];
    this.openBytes = 0;
    this.openStream = undefined;
  }

  private pump(): void {
    while (!this.blocked && !this.closed && this.ready.length > 0) {
      const batch = this.ready.shift() as LogBatch;
      this.readyBytes -= batch.data.length;
      if (!this.write(batch)) this.blocked = true;
    }
    if (this.pendingBytes === 0) this.wakeIdle();
    this.checkPressure();
  }

  private checkPressure(): void {
    if (this.closed) return;
    const pending = this.pendingBytes;
    if (!this.paused && pending > this.highWaterBytes) {
      this.paused = true;
      this.pauseSource();
    } else if (this.paused && pending <= this.highWaterBytes / 2) {
      this.paused = false;
      this.resumeSource();
    }
  }
}
