import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EngineInfo } from '../docker/container-client.js';
import { engineInfoFromDocker } from '../docker/inspect-mapping.js';
import type { ToolkitInfo, ToolkitProbe } from '../gpu/toolkit.js';
import { chooseDevicePath, GpuRuntime, nvidiaCdiNames } from './gpu-runtime.js';

/** A recorded Docker /info answer (test/fixtures/docker-info, sources in its README). */
const recorded = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../test/fixtures/docker-info/${name}`, import.meta.url), 'utf8'));

const docker2010 = recorded('dockerd-20.10.24__info.json');
const docker2961 = recorded('docker-29.6.1__ubuntu-24.04__info.json');
const desktop2832 = recorded('docker-desktop-28.3.2__wsl2__info.json');

const UUID0 = 'GPU-8836a272-ca08-9629-24b6-54ca9b98cd30';
const UUID1 = 'GPU-3f2a1b7c-0000-0000-0000-000000000000';
/**
 * The 28.3.2 answer with the devices `nvidia-ctk cdi generate` names by default (index, uuid
 * and `all`, --device-name-strategy [index, uuid]) in place of its own docker.com/gpu=webgpu.
 */
const withNvidiaCdi = engineInfoFromDocker({
  ...desktop2832,
  DiscoveredDevices: [
    { Source: 'cdi', ID: 'nvidia.com/gpu=0' },
    { Source: 'cdi', ID: `nvidia.com/gpu=${UUID0}` },
    { Source: 'cdi', ID: 'nvidia.com/gpu=1' },
    { Source: 'cdi', ID: `nvidia.com/gpu=${UUID1}` },
    { Source: 'cdi', ID: 'nvidia.com/gpu=all' },
  ],
});

const toolkit = (mode: string, unsafeReason = ''): ToolkitInfo => ({
  ctkVersion: '1.20.0',
  cliVersion: '1.20.0',
  runtimeHookVersion: '1.20.0',
  cdiHookVersion: '1.20.0',
  mode,
  unsafeReason,
});

describe("Docker's /info", () => {
  it('reads CDISpecDirs and DiscoveredDevices where the engine reports them', () => {
    expect(engineInfoFromDocker(docker2010)).toMatchObject({
      serverVersion: '20.10.24+dfsg1',
      cdiSpecDirs: undefined,
      discoveredDevices: undefined,
    });
    expect(engineInfoFromDocker(docker2961)).toMatchObject({
      serverVersion: '29.6.1',
      dataRoot: '/var/lib/docker',
      cdiSpecDirs: ['/etc/cdi', '/var/run/cdi'],
      discoveredDevices: undefined,
      runtimes: ['io.containerd.runc.v2', 'runc'],
    });
    const desktop = engineInfoFromDocker(desktop2832);
    expect(desktop.discoveredDevices).toEqual([{ source: 'cdi', id: 'docker.com/gpu=webgpu' }]);
    expect(desktop.runtimes).toContain('nvidia');
    expect(nvidiaCdiNames(desktop)).toEqual([]);
    expect(nvidiaCdiNames(withNvidiaCdi)).toEqual(['0', UUID0, '1', UUID1, 'all']);
  });
});

describe('the device path', () => {
  it('uses CDI where Docker lists nvidia.com/gpu devices, in any toolkit mode', () => {
    expect(chooseDevicePath(withNvidiaCdi, toolkit('auto'))).toEqual({ devicePath: 'cdi', unsafeReason: '' });
    expect(chooseDevicePath(withNvidiaCdi, toolkit('cdi'))).toEqual({ devicePath: 'cdi', unsafeReason: '' });
  });

  it('uses the legacy hook where no nvidia.com/gpu device is listed and the toolkit is not in CDI mode', () => {
    for (const info of [docker2010, docker2961, desktop2832]) {
      expect(chooseDevicePath(engineInfoFromDocker(info), toolkit('auto'))).toEqual({
        devicePath: 'legacy',
        unsafeReason: '',
      });
    }
    expect(chooseDevicePath(engineInfoFromDocker(docker2961), toolkit('legacy')).devicePath).toBe('legacy');
  });

  it('refuses GPU work with a toolkit in CDI mode and no CDI devices listed (dstack#2306), saying what to run', () => {
    for (const info of [docker2010, docker2961, desktop2832]) {
      const { devicePath, unsafeReason } = chooseDevicePath(engineInfoFromDocker(info), toolkit('cdi'));
      expect(devicePath).toBe('cdi');
      expect(unsafeReason).toMatch(
        /^NVIDIA Container Toolkit 为 CDI 模式, 但 Docker 未列出 nvidia\.com\/gpu CDI 设备/,
      );
      expect(unsafeReason).toContain('nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml');
    }
    expect(chooseDevicePath(engineInfoFromDocker(docker2010), toolkit('cdi')).unsafeReason).toContain(
      'CDI is off in Docker',
    );
  });

  it("puts the toolkit's own unsafe reason first", () => {
    expect(chooseDevicePath(withNvidiaCdi, toolkit('auto', 'old toolkit')).unsafeReason).toBe('old toolkit');
    expect(
      chooseDevicePath(engineInfoFromDocker(docker2961), toolkit('cdi', 'old toolkit')).unsafeReason,
    ).toBe('old toolkit');
  });
});

describe('GpuRuntime', () => {
  it('reads Docker and the toolkit at most every 30 s, and at once when asked', async () => {
    let now = 0;
    let infos = 0;
    const client = {
      engineInfo: async (): Promise<EngineInfo> => {
        infos += 1;
        return withNvidiaCdi;
      },
    };
    const probe = { info: async () => toolkit('auto') } as unknown as ToolkitProbe;
    const runtime = new GpuRuntime({ client, toolkit: probe, now: () => now });
    expect(await runtime.state()).toMatchObject({
      devicePath: 'cdi',
      cdiGpuNames: ['0', UUID0, '1', UUID1, 'all'],
    });
    now += 29_000;
    await runtime.state();
    expect(infos).toBe(1);
    await runtime.state(true);
    expect(infos).toBe(2);
    now += 31_000;
    await runtime.state();
    expect(infos).toBe(3);
  });

  it('gives simulated GPUs no device path and never asks the toolkit', async () => {
    const runtime = new GpuRuntime({
      client: {
        engineInfo: async () => {
          throw new Error('not asked');
        },
      },
      toolkit: undefined,
    });
    expect(await runtime.state()).toEqual({
      devicePath: '',
      toolkit: undefined,
      cdiGpuNames: [],
      unsafeReason: '',
    });
  });
});
