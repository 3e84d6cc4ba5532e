// Health in placement with the real agent and simulated GPUs: the simulated probe's control
// file (written as an operator's nvidia-smi would change) makes a GPU unhealthy, MIG-enabled or
// moves the indices, and the next create sees it.
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSimulatedGpuControl } from '../src/gpu/simulated-gpu-probe.js';
import { createRequest, gpuUuids, grpcError, startTestAgent, type TestAgent, testSpec } from './helpers.js';

describe('GPU health in placement (simulated GPUs)', () => {
  let t: TestAgent;
  let uuids: string[] = [];
  beforeAll(async () => {
    t = await startTestAgent({ simulateGpus: '4xH100' });
    uuids = await gpuUuids(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses an unhealthy GPU and a MIG GPU asked for whole, and gives the others', async () => {
    const [sick, mig, fine] = uuids;
    await writeSimulatedGpuControl(t.stateDir, {
      unhealthy: { [sick ?? '']: 'Xid 79 (GPU has fallen off the bus)' },
      mig: [mig ?? ''],
    });
    const refusedSick = await grpcError(
      createRequest(t, { spec: testSpec(t, { gpuDeviceIds: [sick ?? ''] }), start: false }),
    );
    expect(refusedSick.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(refusedSick.details).toBe(`GPU 0 (${sick}) 不可用: Xid 79 (GPU has fallen off the bus)`);
    const refusedMig = await grpcError(
      createRequest(t, { spec: testSpec(t, { gpuDeviceIds: [mig ?? ''] }), start: false }),
    );
    expect(refusedMig.details).toMatch(/^GPU 1 \(GPU-[^)]+\) 已开启 MIG, 不能整卡分配/);
    const created = await createRequest(t, {
      spec: testSpec(t, { gpuDeviceIds: [fine ?? ''] }),
      start: false,
    });
    expect(created.gpuDeviceIds).toEqual([fine]);
  });

  it('names GPUs by UUID when the indices move (a GPU lost)', async () => {
    // GPU 0 is gone: nvidia-smi numbers the others 0, 1, 2.
    await writeSimulatedGpuControl(t.stateDir, { order: uuids.slice(1) });
    const created = await createRequest(t, { spec: testSpec(t, { gpuDeviceIds: ['0'] }), start: false });
    expect(created.gpuDeviceIds).toEqual([uuids[1]]);
    const gone = await grpcError(
      createRequest(t, { spec: testSpec(t, { gpuDeviceIds: [uuids[0] ?? ''] }), start: false }),
    );
    expect(gone.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(gone.details).toMatch(/在本节点不存在/);
  });
});
