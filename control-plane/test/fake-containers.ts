import { randomBytes } from 'node:crypto';
import type { RunningControlPlane } from '../src/platform.js';

/** A node row nobody dials (billing reads containers only from the database). */
export async function fakeNode(cp: RunningControlPlane): Promise<number> {
  const [row] = await cp
    .knex('nodes')
    .insert({
      name: `fake-${randomBytes(4).toString('hex')}`,
      address: '127.0.0.1:1',
      token: 'x'.repeat(20),
      region: '测试区',
    })
    .returning('id');
  return row.id as number;
}

/** A running container row for metering tests (no agent, no Docker). */
export async function fakeContainer(
  cp: RunningControlPlane,
  p: {
    userId: number;
    nodeId: number;
    priceFen: number;
    gpuCount?: number;
    billingType?: string;
    noGpuPriceFen?: number;
  },
): Promise<string> {
  const id = `c-${randomBytes(5).toString('hex')}`;
  await cp.knex('containers').insert({
    id,
    user_id: p.userId,
    node_id: p.nodeId,
    name: id,
    image: 'fake',
    status: 'running',
    billing_type: p.billingType ?? 'hourly',
    price_fen: p.priceFen,
    no_gpu_price_fen: p.noGpuPriceFen ?? 0,
    gpu_count: p.gpuCount ?? 1,
    password_encrypted: 'x',
    started_at: new Date(),
  });
  return id;
}
