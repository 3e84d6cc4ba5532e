import type { HostInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, grpcError, startTestAgent, type TestAgent, unaryCall } from './helpers.js';

describe('the agent over gRPC', () => {
  let t: TestAgent;
  beforeAll(async () => {
    t = await startTestAgent({ simulateGpus: '8xRTX4090', portRange: '31000-31999' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a call without a token, with a wrong token and with a malformed header', async () => {
    const noToken = await grpcError(unaryCall((cb) => t.client.getHostInfo({}, new grpc.Metadata(), cb)));
    expect(noToken.code).toBe(grpc.status.UNAUTHENTICATED);
    const wrong = await grpcError(unaryCall((cb) => t.client.getHostInfo({}, bearer(`${t.token}x`), cb)));
    expect(wrong.code).toBe(grpc.status.UNAUTHENTICATED);
    const md = new grpc.Metadata();
    md.set('authorization', t.token);
    const malformed = await grpcError(unaryCall((cb) => t.client.getHostInfo({}, md, cb)));
    expect(malformed.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('refuses a streaming call without the token', async () => {
    const stream = t.client.watchEvents({}, new grpc.Metadata());
    const err = await new Promise<grpc.ServiceError>((resolve) => stream.on('error', resolve));
    expect(err.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('reports the host with 8 simulated RTX 4090 and a reachable Docker', async () => {
    const info: HostInfo__Output = await unaryCall((cb) => t.client.getHostInfo({}, t.md, cb));
    expect(info.simulated).toBe(true);
    expect(info.gpus).toHaveLength(8);
    expect(info.gpus.map((g) => g.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const gpu of info.gpus) {
      expect(gpu.model).toBe('NVIDIA GeForce RTX 4090');
      expect(gpu.memoryTotalMib).toBe('24564');
      expect(gpu.uuid).toMatch(/^GPU-SIM-[0-9a-f]{8}-/);
      expect(gpu.utilizationPercent).toBe(0);
    }
    expect(new Set(info.gpus.map((g) => g.uuid)).size).toBe(8);
    expect(info.dockerAvailable).toBe(true);
    expect(info.dockerVersion).not.toBe('');
    expect(info.dockerError).toBe('');
    expect(info.hostname).not.toBe('');
    expect(info.kernel).not.toBe('');
    expect(info.cpuCores).toBeGreaterThan(0);
    expect(Number(info.memoryTotalBytes)).toBeGreaterThan(0);
    expect(Number(info.diskTotalBytes)).toBeGreaterThan(0);
    expect(info.portRangeStart).toBe(31000);
    expect(info.portRangeEnd).toBe(31999);
    expect(info.publicHost).toBe('127.0.0.1');
    expect(info.agentVersion).toMatch(/^\d+\.\d+\.\d+/);
    // The same node reports the same uuids every time.
    const again: HostInfo__Output = await unaryCall((cb) => t.client.getHostInfo({}, t.md, cb));
    expect(again.gpus.map((g) => g.uuid)).toEqual(info.gpus.map((g) => g.uuid));
  });
});
