import type { FrameworkVersion } from '@gpucloud/control-plane/api';
import { describe, expect, it } from 'vitest';
import { findPreset, frameworkPortNumbers, versionsForServer } from './framework-versions';

const version = (
  v: Pick<FrameworkVersion, 'id' | 'version' | 'system_type'> & Partial<FrameworkVersion>,
) => ({
  framework_id: 1,
  image: 'pytorch/pytorch',
  cuda_version: '',
  ports: {},
  mounts: [],
  extra_driver_capabilities: [],
  ...v,
});

const versions: FrameworkVersion[] = [
  version({ id: 1, version: '2.1', system_type: 'ubuntu', ports: { ssh: 22, jupyter: 8888 } }),
  version({ id: 2, version: '2.1-win', system_type: 'windows', ports: { custom: 'rdp:3389,vnc:5900' } }),
  version({ id: 3, version: '2.3', system_type: 'ubuntu' }),
];

describe('framework versions', () => {
  it('offers Windows versions only on Windows servers and Ubuntu versions elsewhere', () => {
    expect(versionsForServer(versions, true).map((v) => v.id)).toEqual([2]);
    expect(versionsForServer(versions, false).map((v) => v.id)).toEqual([1, 3]);
  });

  it('collects default ports, including the custom name:port list', () => {
    expect(frameworkPortNumbers({ ssh: 22, jupyter: 8888 })).toEqual([22, 8888]);
    expect(frameworkPortNumbers({ ssh: 22, custom: 'rdp:3389,vnc:5900,bad' })).toEqual([22, 3389, 5900]);
    expect(frameworkPortNumbers(undefined)).toEqual([]);
  });

  it('finds a preset by id or by name', () => {
    expect(findPreset(versions, '3', (v) => v.version)?.id).toBe(3);
    expect(findPreset(versions, '2.1-WIN', (v) => v.version)?.id).toBe(2);
    expect(findPreset(versions, null, (v) => v.version)).toBeUndefined();
  });
});
