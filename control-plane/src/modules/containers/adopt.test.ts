import type { ContainerInfo__Output } from '@gpucloud/proto';
import { describe, expect, it } from 'vitest';
import { adoptionFor, type RecordedAllocations, reportApplies } from './adopt.js';

const ssh = { name: 'ssh', container_port: 22, host_port: 30001, custom: false };
const gpus = [
  { uuid: 'GPU-a', gpu_index: 0 },
  { uuid: 'GPU-b', gpu_index: 1 },
];

function row(over: Partial<RecordedAllocations> = {}): RecordedAllocations {
  return {
    id: 'c1',
    status: 'running',
    status_changed_at: new Date(1000),
    ports: [ssh],
    gpu_devices: ['GPU-a'],
    reserved_ports: [30001],
    gpu_uuids: ['GPU-a'],
    ...over,
  };
}

type Reported = Pick<ContainerInfo__Output, 'state' | 'ports' | 'gpuDeviceIds'>;

function info(over: Partial<Reported> = {}): Reported {
  return {
    state: 'CONTAINER_STATE_RUNNING',
    ports: [{ containerPort: 22, hostPort: 30001, name: 'ssh', protocol: 'PROTOCOL_TCP', hostIp: '' }],
    gpuDeviceIds: ['GPU-a'],
    ...over,
  };
}

describe('adoptionFor', () => {
  it('is null when the row and the report agree', () => {
    expect(adoptionFor(row(), info(), gpus)).toBeNull();
  });

  it('takes the ports Docker binds after a port change cut off half-way (old JSON, both sets reserved)', () => {
    const reported = info({
      ports: [
        { containerPort: 22, hostPort: 30001, name: 'ssh', protocol: 'PROTOCOL_TCP', hostIp: '' },
        { containerPort: 12000, hostPort: 12000, name: 'custom', protocol: 'PROTOCOL_TCP', hostIp: '' },
      ],
    });
    const adoption = adoptionFor(row({ reserved_ports: [30001, 12000, 13000] }), reported, gpus);
    expect(adoption?.ports).toEqual([
      { name: 'custom', container_port: 12000, host_port: 12000, custom: true },
      ssh,
    ]);
    expect(adoption?.gpus).toBeUndefined();
  });

  it('gives back reservations the node does not bind (the node put the old container back)', () => {
    const adoption = adoptionFor(row({ reserved_ports: [30001, 12000] }), info(), gpus);
    expect(adoption?.ports).toEqual([ssh]);
  });

  it('restores the GPUs a running container holds that the row lost, by UUID or by index', () => {
    expect(adoptionFor(row({ gpu_uuids: [] }), info(), gpus)?.gpus).toEqual({
      uuids: ['GPU-a'],
      devices: ['GPU-a'],
    });
    expect(adoptionFor(row({ gpu_uuids: [] }), info({ gpuDeviceIds: ['1'] }), gpus)?.gpus).toEqual({
      uuids: ['GPU-b'],
      devices: ['1'],
    });
  });

  it('releases GPUs a running container does not hold (recreated in 无卡模式)', () => {
    expect(adoptionFor(row(), info({ gpuDeviceIds: [] }), gpus)?.gpus).toEqual({ uuids: [], devices: [] });
  });

  it('leaves GPUs alone while the container does not run, and GPUs the node does not list', () => {
    expect(adoptionFor(row({ gpu_uuids: [] }), info({ state: 'CONTAINER_STATE_EXITED' }), gpus)).toBeNull();
    expect(adoptionFor(row(), info({ gpuDeviceIds: ['GPU-gone'] }), gpus)).toBeNull();
  });
});

describe('reportApplies', () => {
  it('refuses rows an action holds or changed after the observation, and rows of purchases or ended ones', () => {
    expect(reportApplies(row(), new Date(2000))).toBe(true);
    expect(reportApplies(row(), new Date(1000))).toBe(true);
    expect(reportApplies(row({ status_changed_at: new Date(3000) }), new Date(2000))).toBe(false);
    expect(reportApplies(row({ status: 'creating' }), new Date(2000))).toBe(false);
    expect(reportApplies(row({ status: 'failed' }), new Date(2000))).toBe(false);
  });
});
