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

  it('says 下载中 while any layer is still to download, then 解压中 while layers are unpacked', () => {
    const p = new PullProgress();
    expect(p.phase).toBe('downloading');
    p.add(msg('latest', 'Pulling from gpucloud/warm'));
    p.add(msg('a', 'Pulling fs layer'));
    p.add(msg('b', 'Pulling fs layer'));
    p.add(msg('c', 'Already exists'));
    expect(p.phase).toBe('downloading');
    p.add(msg('a', 'Downloading', 10, 100));
    p.add(msg('b', 'Waiting'));
    p.add(msg('a', 'Verifying Checksum'));
    p.add(msg('a', 'Download complete'));
    // a could be unpacked, but b is not here yet: still downloading.
    p.add(msg('a', 'Extracting', 50, 100));
    expect(p.phase).toBe('downloading');
    p.add(msg('b', 'Downloading', 300, 300));
    p.add(msg('b', 'Download complete'));
    expect(p.phase).toBe('extracting');
    p.add(msg('a', 'Pull complete'));
    p.add(msg('b', 'Extracting', 100, 300));
    expect(p.phase).toBe('extracting');
    p.add(msg('b', 'Pull complete'));
    p.add(msg('', 'Digest: sha256:…'));
    expect(p.add(msg('', 'Status: Downloaded newer image', 0, 0, true))).toBe(100);
  });
});
