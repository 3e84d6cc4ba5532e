// Docker's log stream of a container without a TTY: frames of an 8-byte header (stream type,
// 3 zero bytes, payload length) and one log message each. Asked with `timestamps`, every
// message starts with its RFC 3339 timestamp (nanoseconds, fixed width) and a space.
import type { OutputStream } from './container-client.js';

export interface LogFrame {
  stream: OutputStream;
  payload: Buffer;
}

/** Returns a chunk handler that calls `onFrame` for every complete frame. */
export function logFrameSplitter(onFrame: (frame: LogFrame) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 8) {
      const length = pending.readUInt32BE(4);
      if (pending.length < 8 + length) break;
      // 0 is stdin, which a log stream never carries; anything else but 2 counts as stdout.
      const stream: OutputStream = pending[0] === 2 ? 'stderr' : 'stdout';
      onFrame({ stream, payload: pending.subarray(8, 8 + length) });
      pending = pending.subarray(8 + length);
    }
  };
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

/** Nanoseconds since the epoch of Docker's `2024-05-01T10:00:00.123456789Z`; undefined if it is not one. */
export function timestampNs(text: string): bigint | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m?.[1]) return undefined;
  const ms = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(ms)) return undefined;
  return BigInt(ms) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

/** Splits `<timestamp> <message>`; a payload without one (an engine's error text) keeps timestamp ''. */
export function splitTimestamp(payload: Buffer): { timestamp: string; timeNs: bigint; data: Buffer } {
  const space = payload.indexOf(0x20);
  if (space > 0 && space <= 40) {
    const timestamp = payload.subarray(0, space).toString('latin1');
    const timeNs = timestampNs(timestamp);
    if (timeNs !== undefined) return { timestamp, timeNs, data: payload.subarray(space + 1) };
  }
  return { timestamp: '', timeNs: 0n, data: payload };
}

/** Docker's `since` for a time in nanoseconds: `seconds.nanoseconds`. */
export function sinceParameter(timeNs: bigint): string {
  const clamped = timeNs < 0n ? 0n : timeNs;
  return `${clamped / 1_000_000_000n}.${String(clamped % 1_000_000_000n).padStart(9, '0')}`;
}
