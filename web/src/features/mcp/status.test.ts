import { describe, expect, it } from 'vitest';
import {
  canResetPassword,
  canStart,
  canStop,
  mcpStatusDisplay,
  pollInterval,
  STATUS_FILTERS,
} from './status';

describe('MCP container status rules', () => {
  it('offers the spec’s filter: all, running, stopped, creating, failed', () => {
    expect(STATUS_FILTERS.map((f) => f.value)).toEqual(['all', 'running', 'stopped', 'creating', 'failed']);
  });

  it('disables start while running and stop unless running', () => {
    expect(canStart('running')).toBe(false);
    expect(canStart('stopped')).toBe(true);
    expect(canStart('failed')).toBe(true);
    expect(canStop('running')).toBe(true);
    for (const status of ['stopped', 'creating', 'failed', 'deleted']) expect(canStop(status)).toBe(false);
    expect(canResetPassword('running')).toBe(true);
    expect(canResetPassword('stopped')).toBe(false);
  });

  it('labels every status in Chinese and polls only while one is being created', () => {
    expect(mcpStatusDisplay('creating')).toEqual({ label: '创建中', color: 'warning' });
    expect(mcpStatusDisplay('deleted').label).toBe('已删除');
    expect(mcpStatusDisplay('').label).toBe('未知');
    expect(pollInterval(['running', 'creating'])).toBe(5000);
    expect(pollInterval(['running', 'stopped'])).toBe(false);
  });
});
