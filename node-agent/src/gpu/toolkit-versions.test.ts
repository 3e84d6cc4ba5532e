import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  MIN_SAFE_TOOLKIT_VERSION,
  parseToolkitVersion,
  toolkitUnsafeReason,
} from './toolkit-versions.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/nvidia-smi/${name}`, import.meta.url), 'utf8');

describe('NVIDIA Container Toolkit version', () => {
  it('reads nvidia-ctk --version', () => {
    expect(parseToolkitVersion(fixture('nvidia-ctk__1.17.8__version.txt'))).toBe('1.17.8');
    expect(parseToolkitVersion(fixture('nvidia-ctk__1.16.1__version.txt'))).toBe('1.16.1');
    expect(parseToolkitVersion('NVIDIA Container Runtime Hook version 1.17.0\ncommit: 5bc0315')).toBe(
      '1.17.0',
    );
    expect(parseToolkitVersion('command not found')).toBe('');
  });

  it('marks a host with a toolkit before 1.17.8 (or none) unsafe', () => {
    expect(MIN_SAFE_TOOLKIT_VERSION).toBe('1.17.8');
    expect(toolkitUnsafeReason('1.16.1')).toMatch(/CVE-2025-23266/);
    expect(toolkitUnsafeReason('1.17.7')).not.toBe('');
    expect(toolkitUnsafeReason('1.17.8')).toBe('');
    expect(toolkitUnsafeReason('1.18.0')).toBe('');
    expect(toolkitUnsafeReason('')).not.toBe('');
  });

  it('compares versions numerically', () => {
    expect(compareVersions('1.17.10', '1.17.8')).toBeGreaterThan(0);
    expect(compareVersions('1.17.8', '1.17.8')).toBe(0);
    expect(compareVersions('1.9', '1.17.8')).toBeLessThan(0);
    expect(compareVersions('1.17.8-rc.1', '1.17.8')).toBe(0);
  });
});
