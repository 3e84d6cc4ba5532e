import { describe, expect, it } from 'vitest';
import { containerEventFrom } from './event-watch.js';

const labels = (name: string) => ({ 'gpucloud.container-id': 'c1', 'gpucloud.managed': 'true', name });

describe('container events for the control plane', () => {
  it('maps Docker actions to states', () => {
    const event = containerEventFrom({
      dockerId: 'd',
      action: 'die',
      labels: labels('gpucloud-c1'),
      exitCode: 137,
      timeUnixMs: 5,
    });
    expect(event).toEqual({
      kind: 'container',
      containerId: 'c1',
      action: 'die',
      state: 'exited',
      exitCode: 137,
      timeUnixMs: 5,
    });
    expect(
      containerEventFrom({
        dockerId: 'd',
        action: 'start',
        labels: labels('gpucloud-c1'),
        exitCode: 0,
        timeUnixMs: 1,
      })?.state,
    ).toBe('running');
    expect(
      containerEventFrom({
        dockerId: 'd',
        action: 'health_status: healthy',
        labels: labels('gpucloud-c1'),
        exitCode: 0,
        timeUnixMs: 1,
      })?.action,
    ).toBe('health_status');
  });

  it('drops exec noise, unlabelled containers and the parked container of a reconfigure', () => {
    expect(
      containerEventFrom({
        dockerId: 'd',
        action: 'exec_start: chpasswd',
        labels: labels('gpucloud-c1'),
        exitCode: 0,
        timeUnixMs: 1,
      }),
    ).toBeUndefined();
    expect(
      containerEventFrom({
        dockerId: 'd',
        action: 'start',
        labels: { name: 'x' },
        exitCode: 0,
        timeUnixMs: 1,
      }),
    ).toBeUndefined();
    expect(
      containerEventFrom({
        dockerId: 'd',
        action: 'destroy',
        labels: labels('gpucloud-c1-superseded-1'),
        exitCode: 0,
        timeUnixMs: 1,
      }),
    ).toBeUndefined();
  });
});
