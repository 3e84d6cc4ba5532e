import { describe, expect, it } from 'vitest';
import { PullProgress } from './pull-progress.js';

const msg = (id: string, status: string, current = 0, total = 0, done = false) => ({
  id,
  status,
  current: String(current),
  total: String(total),
  done,
});

describe('the pull percentage of 拉取镜像中', () => {
  it('counts the downloaded and extracted bytes of the layers whose size is known', () => {
    const p = new PullProgress();
    expect(p.add(msg('a', 'Pulling fs layer'))).toBe(0);
    expect(p.add(msg('b', 'Already exists'))).toBe(0);
    expect(p.add(msg('a', 'Downloading', 500, 1000))).toBe(25);
    // A bigger layer shows up: 500 of 8000 bytes, but the figure does not go back.
    expect(p.add(msg('c', 'Downloading', 0, 3000))).toBe(25);
    expect(p.add(msg('a', 'Download complete'))).toBe(25);
    expect(p.add(msg('a', 'Extracting', 1000, 1000))).toBe(25);
    expect(p.add(msg('c', 'Downloading', 3000, 3000))).toBe(62);
    expect(p.add(msg('c', 'Pull complete'))).toBe(99);
    expect(p.add(msg('', 'Digest: sha256:…', 0, 0, true))).toBe(100);
  });

  it('never goes back when a new layer appears, and stays below 100 until the image is there', () => {
    const p = new PullProgress();
    expect(p.add(msg('a', 'Downloading', 1000, 1000))).toBe(50);
    expect(p.add(msg('b', 'Downloading', 0, 100_000))).toBe(50);
    expect(p.add(msg('a', 'Pull complete'))).toBe(50);
    expect(p.add(msg('b', 'Pull complete'))).toBe(99);
  });
});
