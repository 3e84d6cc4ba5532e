import { PROVISIONING } from '../src/modules/containers/status.js';
import type { RunningControlPlane } from '../src/platform.js';
import type { TestAgent } from './agents.js';
import { ADMIN, ApiClient } from './harness.js';

export interface MarketFixture {
  productId: number;
  nodeId: number;
  frameworkId: number;
  versionId: number;
  pricePerGpuHour: number;
}

/** Registers `agent` as a node through the admin API and gives it a cloud product. */
export async function addNodeWithProduct(
  cp: RunningControlPlane,
  agent: TestAgent,
  name: string,
): Promise<MarketFixture> {
  const admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
  const res = await admin.request<{ id: number }>('POST', '/api/admin/nodes', {
    name,
    address: agent.address,
    token: agent.token,
    region: '测试区',
  });
  if (res.status !== 201) throw new Error(`add node failed: ${JSON.stringify(res.body)}`);
  const node = await cp.services.nodes.require(res.body.id);
  await cp.services.products.ensureDefaultProduct(node, 199);
  const products = await cp.services.products.list({});
  const product = products.find((p) => p.node_id === node.id);
  if (!product) throw new Error('no product');
  const frameworks = await cp.services.catalogue.frameworks();
  const base = frameworks.find((f) => f.name === 'Base');
  if (!base) throw new Error('no Base framework');
  const [version] = await cp.services.catalogue.versions(base.id);
  if (!version) throw new Error('no Base version');
  return {
    productId: product.id,
    nodeId: node.id,
    frameworkId: base.id,
    versionId: version.id,
    pricePerGpuHour: product.price,
  };
}

export function purchaseBody(f: MarketFixture, overrides: Record<string, unknown> = {}) {
  const gpuCount = (overrides.gpuCount as number | undefined) ?? 1;
  return {
    instanceName: 'test',
    gpuCount,
    needExpand: false,
    imageType: 'public',
    framework: f.frameworkId,
    frameworkVersion: f.versionId,
    custom_ports: [],
    agreeTerms: true,
    mounts: [],
    billing_type: 'hourly',
    duration: 1,
    total_price: Math.round(f.pricePerGpuHour * 100 * gpuCount) / 100,
    ...overrides,
  };
}

/** Destroys every live container through the platform, so the Docker engine is left clean. */
export async function destroyAllContainers(cp: RunningControlPlane): Promise<void> {
  const rows = await cp.knex('containers').whereNot('status', 'deleted').select('id');
  const root = { id: 0, username: ADMIN.username, nickname: null, isAdmin: true };
  for (const row of rows) await cp.services.containers.destroy(root, row.id, { admin: true }).catch(() => {});
}

/**
 * Buys through the API as `buyer` and waits until the node has provisioned the container, so
 * later reads see rows that no longer move on their own. Returns the container's id.
 */
export async function purchaseSettled(
  cp: RunningControlPlane,
  buyer: ApiClient,
  f: MarketFixture,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const res = await buyer.request<{ container_id: string }>(
    'POST',
    `/api/cloud-products/${f.productId}/purchase`,
    purchaseBody(f, overrides),
  );
  if (res.status !== 201) throw new Error(`purchase failed: ${JSON.stringify(res.body)}`);
  const id = res.body.container_id;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const row = await cp.knex('containers').where({ id }).first('status');
    if (!PROVISIONING.includes(row.status)) return id;
    if (Date.now() > deadline) throw new Error(`container ${id} still ${row.status} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
