import { describe, expect, it } from 'vitest';
import { LogFrameBatcher, MAX_FRAME_CHARS } from './log-frames.js';

function setup(highWater = 100) {
  const frames: string[] = [];
  const callbacks: (() => void)[] = [];
  const events: string[] = [];
  let buffered = 0;
  const batcher = new LogFrameBatcher(
    {
      send: (text, sent) => {
        frames.push(text);
        buffered += text.length;
        callbacks.push(() => {
          buffered -= text.length;
          sent();
        });
      },
      bufferedAmount: () => buffered,
    },
    { pause: () => events.push('pause'), resume: () => events.push('resume') },
    highWater,
  );
  return { batcher, frames, callbacks, events };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const chunk = (text: string | Buffer, stream = 'STDOUT') => ({
  stream,
  data: typeof text === 'string' ? Buffer.from(text) : text,
});

describe('LogFrameBatcher', () => {
  it('sends what arrives in one turn as one frame, and a UTF-8 character split between chunks whole', async () => {
    const { batcher, frames } = setup(1e9);
    const bytes = Buffer.from('日志 a\n');
    batcher.push(chunk(bytes.subarray(0, 2)));
    batcher.push(chunk(bytes.subarray(2)));
    batcher.push(chunk('err\n', 'STDERR'));
    expect(frames).toEqual([]);
    await tick();
    expect(frames).toEqual(['日志 a\nerr\n']);
  });

  it('sends a frame at once when it reaches the frame size', () => {
    const { batcher, frames } = setup(1e9);
    batcher.push(chunk('x'.repeat(MAX_FRAME_CHARS - 1)));
    expect(frames).toHaveLength(0);
    batcher.push(chunk('yy'));
    expect(frames.map((f) => f.length)).toEqual([MAX_FRAME_CHARS + 1]);
  });

  it('pauses the agent stream while the socket holds too much and resumes once it drained', async () => {
    const { batcher, frames, callbacks, events } = setup(100);
    batcher.push(chunk('a'.repeat(80)));
    await tick();
    expect(events).toEqual([]);
    batcher.push(chunk('b'.repeat(80)));
    await tick();
    expect(events).toEqual(['pause']);
    callbacks.shift()?.();
    // 80 still buffered: above half the mark.
    expect(events).toEqual(['pause']);
    callbacks.shift()?.();
    expect(events).toEqual(['pause', 'resume']);
    expect(frames.join('')).toBe('a'.repeat(80) + 'b'.repeat(80));
  });

  it('sends nothing after close', async () => {
    const { batcher, frames } = setup();
    batcher.push(chunk('a\n'));
    batcher.close();
    await tick();
    batcher.push(chunk('b\n'));
    batcher.flush();
    expect(frames).toEqual([]);
  });
});
