import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IGNORED_XIDS, kmsgLines, parseXidLine, XidMonitor, xidProblem } from './xid.js';

async function* lines(...items: string[]): AsyncGenerator<string> {
  for (const item of items) yield item;
}

describe('Xid lines', () => {
  it('reads a /dev/kmsg record', () => {
    expect(
      parseXidLine(
        '3,1234,5678901234,-;NVRM: Xid (PCI:0000:3b:00): 79, pid=2231, name=python, GPU has fallen off the bus.',
      ),
    ).toEqual({ code: 79, pciBusId: '0000:3b:00', message: 'GPU has fallen off the bus' });
  });

  it('reads the dmesg form without pid (as quoted in NVIDIA/NVSentinel#155)', () => {
    expect(parseXidLine('NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus')).toEqual({
      code: 79,
      pciBusId: '0000:44:00',
      message: 'GPU has fallen off the bus',
    });
  });

  it('reads the multi-line "fallen off the bus" report without an Xid (NVIDIA/NVSentinel#155) as Xid 79', () => {
    const record =
      '3,900,1843308145,-;NVRM: The NVIDIA GPU 0000:b3:00.0\\x0a               NVRM: (PCI ID: 10de:26b5) installed in this system has\\x0a               NVRM: fallen off the bus and is not responding to commands.';
    expect(parseXidLine(record)).toMatchObject({ code: 79, pciBusId: '0000:b3:00' });
  });

  it('ignores other kernel lines', () => {
    expect(parseXidLine('6,1,1,-;mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link ACTIVE')).toBeUndefined();
    expect(
      parseXidLine('NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.158.01'),
    ).toBeUndefined();
  });

  it('words the problem in Chinese with the English name', () => {
    expect(xidProblem({ code: 79, pciBusId: '0000:3b:00', message: '' })).toBe(
      'GPU 发生 Xid 79 错误 (GPU has fallen off the bus), 需要管理员处理',
    );
    expect(xidProblem({ code: 999, pciBusId: '0000:3b:00', message: 'something new' })).toBe(
      'GPU 发生 Xid 999 错误 (something new), 需要管理员处理',
    );
  });
});

describe('the Xid monitor', () => {
  it('marks critical Xids sticky per GPU, ignores application Xids, maps by any bus id form', async () => {
    const monitor = new XidMonitor({
      source: lines(
        '4,10,100,-;NVRM: Xid (PCI:0000:3b:00): 13, pid=1, name=a, Graphics Engine Exception',
        '4,11,101,-;NVRM: Xid (PCI:0000:5e:00): 43, pid=1, name=a, Ch 00000010',
        '4,12,102,-;NVRM: Xid (PCI:0000:86:00): 48, pid=2, name=b, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 0, subpartition 1.',
        '4,13,103,-;NVRM: Xid (PCI:0000:86:00): 79, GPU has fallen off the bus.',
      ),
    });
    await monitor.done;
    expect(DEFAULT_IGNORED_XIDS).toEqual([13, 31, 43, 45, 68, 109]);
    expect(monitor.problemFor('00000000:3B:00.0')).toBe('');
    expect(monitor.problemFor('00000000:5E:00.0')).toBe('');
    expect(monitor.problemFor('00000000:86:00.0')).toBe(
      'GPU 发生 Xid 48 错误 (Double Bit ECC Error), 需要管理员处理',
    );
    expect(monitor.problemFor('')).toBe('');
  });

  it('takes a configured ignore list', async () => {
    const monitor = new XidMonitor({
      source: lines('NVRM: Xid (PCI:0000:3b:00): 13, pid=1, name=a, Graphics Engine Exception'),
      ignoredXids: [],
    });
    await monitor.done;
    expect(monitor.problemFor('00000000:3B:00.0')).toMatch(/Xid 13/);
  });

  it('logs and stops quietly when the source fails', async () => {
    const logged: string[] = [];
    async function* failing(): AsyncGenerator<string> {
      yield 'NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.';
      throw new Error('EIO');
    }
    const monitor = new XidMonitor({ source: failing(), log: (line) => logged.push(line) });
    await monitor.done;
    expect(monitor.problemFor('0000:3b:00')).toMatch(/Xid 79/);
    expect(logged.at(-1)).toMatch(/EIO/);
  });
});

describe('kmsgLines', () => {
  it('ends quietly, with one log line, when /dev/kmsg cannot be opened', async () => {
    const logged: string[] = [];
    const read: string[] = [];
    for await (const line of kmsgLines({ path: '/nonexistent/kmsg', log: (l) => logged.push(l) }))
      read.push(line);
    expect(read).toEqual([]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/无法读取内核日志.*\/nonexistent\/kmsg/);
  });

  it('skips what was there at open (start from now) and stops on abort', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kmsg-'));
    try {
      const file = path.join(dir, 'kmsg');
      await writeFile(file, 'old record\n');
      const abort = new AbortController();
      const read: string[] = [];
      const reading = (async () => {
        for await (const line of kmsgLines({ path: file, pollMs: 5, signal: abort.signal })) read.push(line);
      })();
      await new Promise((resolve) => setTimeout(resolve, 50));
      abort.abort();
      await reading;
      // A regular file reads 0 at its end (no EAGAIN), so nothing is ever "new": all skipped.
      expect(read).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
