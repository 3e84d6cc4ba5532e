// A container's writable layer (系统盘) where the node's storage driver cannot limit it: the
// agent measures it, the node monitor keeps it on the row, and GET /api/containers warns the
// owner as it nears and passes the node's allowance. A real agent and container; the allowance is
// set to 16M so that a few megabytes written in the container reach it.
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { containerReply } from '../src/modules/containers/contract.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { ApiClient, createTestDatabase, startControlPlaneOn } from './harness.js';
import { adjustBalance } from './money.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseSettled } from './purchase.js';

interface ContainerAnswer {
  writable_layer_bytes: number | null;
  disk_warning: string | null;
}

const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let owner: ApiClient;

beforeAll(async () => {
  cp = await startControlPlaneOn(await createTestDatabase());
  agent = await startTestAgent({
    containerLayerSize: '16M',
    layerMeasureIntervalMs: 500,
    reconcileIntervalMs: 500,
  });
  market = await addNodeWithProduct(cp, agent, 'disk-node');
  owner = new ApiClient(cp.url);
  await owner.register('disk_owner');
  await adjustBalance(cp, 'disk_owner', 100);
}, 120_000);

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

async function write(id: string, megabytes: number): Promise<void> {
  const exec = await docker()
    .getContainer(`gpucloud-${id}`)
    .exec({
      Cmd: ['sh', '-c', `dd if=/dev/zero of=/root/fill bs=1048576 count=${megabytes} 2>/dev/null; sync`],
      AttachStdout: true,
    });
  const stream = await exec.start({});
  await new Promise((resolve) => stream.on('end', resolve).resume());
}

describe("a container's writable layer where the node cannot limit it", () => {
  it('is measured, and its owner is warned near and over the allowance', async () => {
    const id = await purchaseSettled(cp, owner, market, { instanceName: 'disk' });
    const limited = (await docker().getContainer(`gpucloud-${id}`).inspect()).HostConfig as {
      StorageOpt?: Record<string, string>;
    };
    const read = async () => {
      const res = await owner.request<ContainerAnswer>('GET', `/api/containers/${id}`);
      expect(res.status).toBe(200);
      expectServed(containerReply, res.body);
      return res.body;
    };
    if (limited.StorageOpt?.size) {
      // Docker enforces the allowance here (xfs with pquota): nothing is measured, nobody warned.
      expect(limited.StorageOpt.size).toBe('16M');
      expect(await read()).toMatchObject({ writable_layer_bytes: null, disk_warning: null });
      return;
    }
    await expect
      .poll(async () => (await read()).writable_layer_bytes, { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect((await read()).disk_warning).toBeNull();

    await write(id, 14); // ≥ 80% of 16 MiB
    await expect
      .poll(async () => (await read()).disk_warning ?? '', { timeout: 20_000 })
      .toMatch(/接近 16 MB 上限/);
    expect((await read()).disk_warning).toContain('数据请放在存储卷中');

    await write(id, 20); // the file is rewritten, bigger than the allowance
    await expect
      .poll(async () => (await read()).disk_warning ?? '', { timeout: 20_000 })
      .toMatch(/已超过 16 MB 上限/);
    expect((await read()).writable_layer_bytes).toBeGreaterThanOrEqual(20 * 1024 * 1024);
  });
});
