import { describe, expect, it } from 'vitest';
import { containerActions, pollInterval, statusDisplay } from './status';

describe('container status display', () => {
  it('maps every status to the spec label and tag colour', () => {
    expect(statusDisplay('running')).toEqual({ label: '运行中', color: 'success' });
    expect(statusDisplay('starting')).toEqual({ label: '启动中', color: 'warning' });
    expect(statusDisplay('stopped')).toEqual({ label: '已停止', color: 'default' });
    expect(statusDisplay('error')).toEqual({ label: '错误', color: 'error' });
    expect(statusDisplay('failed').label).toBe('失败');
    expect(statusDisplay('not_found').label).toBe('不存在');
    expect(statusDisplay('deleted').label).toBe('已删除');
    expect(statusDisplay('rebooting')).toEqual({ label: 'rebooting', color: 'default' });
  });
});

describe('container actions', () => {
  it('offers stop and destroy while running or starting', () => {
    expect(containerActions('running')).toEqual(['stop', 'destroy']);
    expect(containerActions('starting')).toEqual(['stop', 'destroy']);
  });

  it('offers start and destroy when stopped, errored, failed or missing', () => {
    for (const status of ['stopped', 'error', 'failed', 'not_found']) {
      expect(containerActions(status)).toEqual(['start', 'destroy']);
    }
  });

  it('offers nothing for a deleted container', () => {
    expect(containerActions('deleted')).toEqual([]);
  });
});

describe('status polling', () => {
  it('polls every 5 s while a container is starting, and stops otherwise', () => {
    expect(pollInterval(['running', 'starting'])).toBe(5000);
    expect(pollInterval(['running', 'stopped'])).toBe(false);
    expect(pollInterval([])).toBe(false);
  });
});
