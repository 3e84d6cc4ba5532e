import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentServiceDefinition, protoPath } from './index.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p).map((f) => path.join(name, f)) : [name];
  });
}

describe('agent.proto', () => {
  it('defines every call the control plane and the agent agreed on', () => {
    const methods = Object.keys(agentServiceDefinition()).sort();
    expect(methods).toEqual(
      [
        'GetHostInfo',
        'WatchEvents',
        'CreateContainer',
        'StartContainer',
        'StopContainer',
        'RemoveContainer',
        'InspectContainer',
        'ListContainers',
        'ListImages',
        'ReconfigureContainer',
        'ResetPassword',
        'StreamLogs',
        'Console',
        'ListOccupiedPorts',
        'CreateVolume',
        'DeleteVolume',
        'DeleteVolumeWithProgress',
        'RenameVolume',
        'GetVolumeUsage',
        'ListVolumes',
        'PullImage',
        'SaveImage',
        'RemoveImage',
        'RenewCertificate',
        'InstallCertificate',
        'UpgradeAgent',
      ].sort(),
    );
    const def = agentServiceDefinition();
    expect(def.UpgradeAgent?.requestStream && !def.UpgradeAgent?.responseStream).toBe(true);
    expect(def.StreamLogs?.responseStream).toBe(true);
    expect(def.Console?.requestStream && def.Console?.responseStream).toBe(true);
    expect(def.WatchEvents?.responseStream).toBe(true);
    expect(def.PullImage?.responseStream).toBe(true);
    expect(def.SaveImage?.responseStream).toBe(true);
    expect(def.RemoveImage?.responseStream).toBe(false);
    expect(def.DeleteVolume?.responseStream).toBe(false);
    expect(def.DeleteVolumeWithProgress?.responseStream && !def.DeleteVolumeWithProgress?.requestStream).toBe(
      true,
    );
  });

  it('has generated types that match the proto file (run `npm run generate -w @gpucloud/proto`)', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'proto-gen-'));
    try {
      execFileSync(
        path.join(root, '..', 'node_modules', '.bin', 'proto-loader-gen-types'),
        [
          '--longs=String',
          '--enums=String',
          '--defaults',
          '--oneofs',
          '--grpcLib=@grpc/grpc-js',
          `--outDir=${out}`,
          'agent/v1/agent.proto',
        ],
        { cwd: root },
      );
      const generated = path.join(root, 'src', 'generated');
      const fresh = files(out).sort();
      expect(
        files(generated)
          .filter((f) => f !== 'index.ts')
          .sort(),
      ).toEqual(fresh);
      for (const f of fresh) {
        expect(readFileSync(path.join(generated, f), 'utf8'), f).toBe(
          readFileSync(path.join(out, f), 'utf8'),
        );
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    expect(protoPath).toMatch(/agent\.proto$/);
  });
});
