// The log WebSocket's outgoing side: the agent's chunks (already batched, ~64 KB or 15 ms) are
// decoded per output stream (a UTF-8 character may be split between chunks) and what arrives
// together goes out as one text frame of at most ~64 KB. While the socket holds more than
// `highWaterBytes` unsent, the agent's stream is paused; it resumes once the socket drained.
import { StringDecoder } from 'node:string_decoder';

export interface LogFrameSink {
  /** Sends one text frame; `sent` runs once it has been written to the socket. */
  send(text: string, sent: () => void): void;
  /** Bytes the socket has not written yet. */
  bufferedAmount(): number;
}

export interface LogFrameSource {
  pause(): void;
  resume(): void;
}

export const MAX_FRAME_CHARS = 64 * 1024;
export const WS_HIGH_WATER_BYTES = 1024 * 1024;

export class LogFrameBatcher {
  private readonly decoders = { STDOUT: new StringDecoder('utf8'), STDERR: new StringDecoder('utf8') };
  private pending: string[] = [];
  private pendingChars = 0;
  private scheduled = false;
  private paused = false;
  private closed = false;

  constructor(
    private readonly sink: LogFrameSink,
    private readonly source: LogFrameSource,
    private readonly highWaterBytes = WS_HIGH_WATER_BYTES,
  ) {}

  /** One chunk from the agent. */
  push(chunk: { stream: string; data: Buffer }): void {
    if (this.closed) return;
    const decoder = chunk.stream === 'STDERR' ? this.decoders.STDERR : this.decoders.STDOUT;
    const text = decoder.write(chunk.data);
    if (!text) return;
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= MAX_FRAME_CHARS) this.flush();
    else if (!this.scheduled) {
      // What else arrived in the same turn goes into the same frame.
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  /** Sends what waits (the stream ended, or a frame is full). */
  flush(): void {
    if (this.closed || this.pendingChars === 0) return;
    const text = this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    this.sink.send(text, () => this.onSent());
    if (!this.paused && this.sink.bufferedAmount() > this.highWaterBytes) {
      this.paused = true;
      this.source.pause();
    }
  }

  close(): void {
    this.closed = true;
    this.pending = [];
    this.pendingChars = 0;
  }

  private onSent(): void {
    if (this.paused && !this.closed && this.sink.bufferedAmount() <= this.highWaterBytes / 2) {
      this.paused = false;
      this.source.resume();
    }
  }
}
