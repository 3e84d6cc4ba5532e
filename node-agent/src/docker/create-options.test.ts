import { describe, expect, it } from 'vitest';
import type { ContainerDefinition } from './container-client.js';
import { buildCreateOptions, CAP_ADD, gpuDeviceRequests } from './create-options.js';
import { detailsFromInspect } from './inspect-mapping.js';

const definition: ContainerDefinition = {
  name: 'gpucloud-c1',
  image: 'pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime',
  env: ['NVIDIA_VISIBLE_DEVICES=GPU-aaaa,GPU-bbbb'],
  labels: { 'gpucloud.managed': 'true' },
  command: [],
  ports: [
    { containerPort: 22, hostPort: 30001, protocol: 'tcp', hostIp: '0.0.0.0', name: 'ssh' },
    { containerPort: 9000, hostPort: 30002, protocol: 'udp', hostIp: '0.0.0.0', name: 'custom' },
  ],
  binds: [{ source: '/var/lib/gpucloud/volumes/u1/data', target: '/root/data', readOnly: true }],
  nvidiaDeviceIds: ['GPU-aaaa', 'GPU-bbbb'],
  resources: { memoryBytes: 64 * 1024 ** 3, nanoCpus: 8e9, pidsLimit: 4096, shmSizeBytes: 8 * 1024 ** 3 },
  logLimits: { maxSize: '10m', maxFiles: 3 },
};

describe('the Docker create body', () => {
  it('requests real GPUs through the nvidia DeviceRequest', () => {
    const body = buildCreateOptions(definition);
    expect(body.HostConfig?.DeviceRequests).toEqual([
      { Driver: 'nvidia', DeviceIDs: ['GPU-aaaa', 'GPU-bbbb'], Capabilities: [['gpu']] },
    ]);
    expect(body.Cmd).toBeUndefined(); // the image's CMD
  });

  it('requests them as CDI devices by UUID where the host uses CDI', () => {
    const body = buildCreateOptions({ ...definition, gpuDevicePath: 'cdi' });
    expect(body.HostConfig?.DeviceRequests).toEqual([
      { Driver: 'cdi', DeviceIDs: ['nvidia.com/gpu=GPU-aaaa', 'nvidia.com/gpu=GPU-bbbb'] },
    ]);
    expect(gpuDeviceRequests([], 'cdi')).toBeUndefined();
    expect(gpuDeviceRequests(['GPU-aaaa'], 'legacy')).toEqual([
      { Driver: 'nvidia', DeviceIDs: ['GPU-aaaa'], Capabilities: [['gpu']] },
    ]);
  });

  it('reads the GPUs back from either request', () => {
    for (const path of ['cdi', 'legacy'] as const) {
      const body = buildCreateOptions({ ...definition, gpuDevicePath: path });
      const details = detailsFromInspect({
        Id: 'x',
        Name: '/gpucloud-c1',
        Created: '2026-01-01T00:00:00Z',
        Config: { Image: definition.image, Labels: {}, Env: [] },
        HostConfig: body.HostConfig,
        State: { Status: 'created', ExitCode: 0, StartedAt: '', FinishedAt: '' },
      } as never);
      expect(details.nvidiaDeviceIds).toEqual(['GPU-aaaa', 'GPU-bbbb']);
    }
  });

  it('publishes tcp and udp ports and binds volumes read-only when asked', () => {
    const body = buildCreateOptions(definition);
    expect(body.ExposedPorts).toEqual({ '22/tcp': {}, '9000/udp': {} });
    expect(body.HostConfig?.PortBindings).toEqual({
      '22/tcp': [{ HostIp: '0.0.0.0', HostPort: '30001' }],
      '9000/udp': [{ HostIp: '0.0.0.0', HostPort: '30002' }],
    });
    expect(body.HostConfig?.Mounts).toEqual([
      {
        Type: 'bind',
        Source: '/var/lib/gpucloud/volumes/u1/data',
        Target: '/root/data',
        ReadOnly: true,
        BindOptions: { Propagation: 'rprivate' },
      },
    ]);
  });

  it('hardens every container and never asks for privileges', () => {
    const host = buildCreateOptions({ ...definition, nvidiaDeviceIds: [] }).HostConfig;
    expect(host?.DeviceRequests).toBeUndefined();
    expect(host).toMatchObject({
      Privileged: false,
      CapDrop: ['ALL'],
      CapAdd: [...CAP_ADD],
      SecurityOpt: ['no-new-privileges:true'],
      Init: true,
      Memory: 64 * 1024 ** 3,
      MemorySwap: 64 * 1024 ** 3,
      NanoCpus: 8e9,
      PidsLimit: 4096,
      ShmSize: 8 * 1024 ** 3,
      RestartPolicy: { Name: 'unless-stopped' },
      LogConfig: { Type: 'json-file', Config: { 'max-size': '10m', 'max-file': '3' } },
    });
    expect(JSON.stringify(host)).not.toContain('docker.sock');
  });
});
