import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ephemeralOverlapWarning, ephemeralPortRange, parseLocalPortRange } from './ephemeral-range.js';

describe('the kernel ephemeral port range', () => {
  it('reads /proc/sys/net/ipv4/ip_local_port_range', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'proc-'));
    mkdirSync(path.join(root, 'sys/net/ipv4'), { recursive: true });
    writeFileSync(path.join(root, 'sys/net/ipv4/ip_local_port_range'), '32768\t60999\n');
    expect(await ephemeralPortRange(root)).toEqual({ start: 32768, end: 60999 });
    expect(await ephemeralPortRange(path.join(root, 'missing'))).toBeUndefined();
    expect(parseLocalPortRange('garbage')).toBeUndefined();
    rmSync(root, { recursive: true, force: true });
  });

  it('warns when the container range overlaps it, at either end', () => {
    const ephemeral = { start: 32768, end: 60999 };
    expect(ephemeralOverlapWarning({ start: 20000, end: 29999 }, ephemeral)).toBeUndefined();
    expect(ephemeralOverlapWarning({ start: 61000, end: 62000 }, ephemeral)).toBeUndefined();
    expect(ephemeralOverlapWarning({ start: 30000, end: 39999 }, ephemeral)).toContain(
      'container port range 30000-39999 overlaps',
    );
    expect(ephemeralOverlapWarning({ start: 60999, end: 61999 }, ephemeral)).toContain('32768-60999');
    expect(ephemeralOverlapWarning({ start: 30000, end: 39999 }, undefined)).toBeUndefined();
  });
});
