import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LogBatch, LogBatcher } from './log-batcher.js';

function setup(options: { maxBatchBytes?: number; highWaterBytes?: number; accept?: () => boolean } = {}) {
  const written: LogBatch[] = [];
  const events: string[] = [];
  const batcher = new LogBatcher({
    write: (batch) => {
      written.push(batch);
      return options.accept ? options.accept() : true;
    },
    pause: () => events.push('pause'),
    resume: () => events.push('resume'),
    maxDelayMs: 15,
    ...(options.maxBatchBytes ? { maxBatchBytes: options.maxBatchBytes } : {}),
    ...(options.highWaterBytes ? { highWaterBytes: options.highWaterBytes } : {}),
  });
  return { batcher, written, events };
}

const text = (batches: LogBatch[]) => batches.map((b) => `${b.stream}:${b.data.toString()}`);

describe('LogBatcher', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes what came within the delay as one batch', () => {
    vi.useFakeTimers();
    const { batcher, written } = setup();
    batcher.push('stdout', Buffer.from('a\n'));
    batcher.push('stdout', Buffer.from('b\n'));
    expect(written).toEqual([]);
    vi.advanceTimersByTime(14);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(text(written)).toEqual(['stdout:a\nb\n']);
    batcher.push('stdout', Buffer.from('c\n'));
    vi.advanceTimersByTime(15);
    expect(text(written)).toEqual(['stdout:a\nb\n', 'stdout:c\n']);
  });

  it('writes a batch at once when it is full, without waiting for the delay', () => {
    vi.useFakeTimers();
    const { batcher, written } = setup({ maxBatchBytes: 10 });
    batcher.push('stdout', Buffer.from('12345\n'));
    batcher.push('stdout', Buffer.from('67890\n'));
    expect(text(written)).toEqual(['stdout:12345\n67890\n']);
    batcher.push('stdout', Buffer.from('x\n'));
    expect(written).toHaveLength(1);
    vi.advanceTimersByTime(15);
    expect(text(written)).toEqual(['stdout:12345\n67890\n', 'stdout:x\n']);
  });

  it('keeps stdout and stderr apart and in order', () => {
    vi.useFakeTimers();
    const { batcher, written } = setup();
    batcher.push('stdout', Buffer.from('o1\n'));
    batcher.push('stdout', Buffer.from('o2\n'));
    batcher.push('stderr', Buffer.from('e1\n'));
    batcher.push('stdout', Buffer.from('o3\n'));
    vi.advanceTimersByTime(15);
    expect(text(written)).toEqual(['stdout:o1\no2\n', 'stderr:e1\n', 'stdout:o3\n']);
  });

  it('stops writing while the sink is full and goes on at drain, in order', () => {
    vi.useFakeTimers();
    let accept = false;
    const { batcher, written } = setup({ maxBatchBytes: 4, accept: () => accept });
    batcher.push('stdout', Buffer.from('aaaa'));
    batcher.push('stdout', Buffer.from('bbbb'));
    batcher.push('stdout', Buffer.from('cccc'));
    // The first write was refused: the others wait.
    expect(text(written)).toEqual(['stdout:aaaa']);
    expect(batcher.pendingBytes).toBe(8);
    accept = true;
    batcher.drain();
    expect(text(written)).toEqual(['stdout:aaaa', 'stdout:bbbb', 'stdout:cccc']);
    expect(batcher.pendingBytes).toBe(0);
  });

  it('pauses the source past the high-water mark and resumes once half of it is written', () => {
    vi.useFakeTimers();
    let accept = false;
    const { batcher, written, events } = setup({
      maxBatchBytes: 10,
      highWaterBytes: 30,
      accept: () => accept,
    });
    for (let i = 0; i < 3; i += 1) batcher.push('stdout', Buffer.from('0123456789'));
    expect(events).toEqual([]);
    batcher.push('stdout', Buffer.from('0123456789'));
    batcher.push('stdout', Buffer.from('0123456789'));
    // 10 bytes went to the sink (refused further), 40 wait: over 30.
    expect(batcher.pendingBytes).toBe(40);
    expect(events).toEqual(['pause']);
    accept = true;
    batcher.drain();
    expect(events).toEqual(['pause', 'resume']);
    expect(Buffer.concat(written.map((b) => b.data)).length).toBe(50);
  });

  it('idle() resolves once everything was written; close() drops what waits', async () => {
    let accept = false;
    const { batcher, written } = setup({ accept: () => accept });
    batcher.push('stdout', Buffer.from('one\n'));
    batcher.push('stderr', Buffer.from('two\n'));
    let idle = false;
    const waiting = batcher.idle().then(() => {
      idle = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(idle).toBe(false);
    expect(text(written)).toEqual(['stdout:one\n']);
    accept = true;
    batcher.drain();
    await waiting;
    expect(text(written)).toEqual(['stdout:one\n', 'stderr:two\n']);

    accept = false;
    batcher.push('stdout', Buffer.from('three\n'));
    batcher.flush();
    batcher.push('stdout', Buffer.from('four\n'));
    const closedIdle = batcher.idle();
    batcher.close();
    await closedIdle;
    batcher.push('stdout', Buffer.from('five\n'));
    batcher.drain();
    expect(text(written)).toEqual(['stdout:one\n', 'stderr:two\n', 'stdout:three\n']);
  });
});
