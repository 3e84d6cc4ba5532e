// 保存镜像 end to end: a running container on one node, with a file written and a package
// installed, saved through the agent into the embedded registry (progress while it works, what is
// inside recorded), then bought on another node from 自定义镜像: that node pulls it from the
// registry with a grant for exactly its repository, and the new machine has the file and the
// package. The source container goes on running as it was.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { imageDetailReply } from '../src/modules/images/contract.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

const BASE_IMAGE = 'gpucloud-test/debian-bash:local';

let cp: RunningControlPlane;
let agentA: TestAgent;
let agentB: TestAgent;
let marketA: MarketFixture;
let marketB: MarketFixture;
let registryDir: string;
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

beforeAll(async () => {
  registryDir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-registry-'));
  cp = await startTestControlPlane({
    registry: { kind: 'embedded', binary: '/usr/bin/docker-registry', port: 0, dataDir: registryDir },
  });
  // Host ports of a band of their own: other suites run beside this one on the same engine.
  agentA = await startTestAgent({ portStart: 24400 });
  agentB = await startTestAgent({ portStart: 24600 });
  marketA = await addNodeWithProduct(cp, agentA, 'node-save-a');
  marketB = await addNodeWithProduct(cp, agentB, 'node-save-b');
  // A Debian base (dpkg, a shell), so what the save adds is there to record.
  const admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
  const version = await admin.request<{ id: number }>(
    'POST',
    `/api/admin/frameworks/${marketA.frameworkId}/versions`,
    {
      version: 'debian-bash',
      image: BASE_IMAGE,
      ports: { ssh: 22 },
    },
  );
  if (version.status !== 201) throw new Error(`version not made: ${JSON.stringify(version.body)}`);
  marketA.versionId = version.body.id;
}, 180_000);

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agentA?.close();
  await agentB?.close();
  if (registryDir) rmSync(registryDir, { recursive: true, force: true });
});

/** Runs a shell command in the platform's container; its output. */
async function sh(containerId: string, script: string): Promise<string> {
  const exec = await docker()
    .getContainer(`gpucloud-${containerId}`)
    .exec({ Cmd: ['sh', '-c', script], AttachStdout: true, AttachStderr: true, Tty: true });
  const stream = await exec.start({ Tty: true });
  const chunks: Buffer[] = [];
  await new Promise((resolve) => stream.on('data', (c: Buffer) => chunks.push(c)).on('end', resolve));
  return Buffer.concat(chunks).toString('utf8').trim();
}

const INSTALL_PACKAGE = [
  'set -e',
  'mkdir -p /tmp/pkg/DEBIAN /tmp/pkg/usr/local/bin',
  "printf 'Package: gpucloud-hello\\nVersion: 1.2.3\\nArchitecture: all\\nMaintainer: t <t@example.com>\\nDescription: saved-image test\\n' > /tmp/pkg/DEBIAN/control",
  "printf '#!/bin/sh\\necho hello-from-package\\n' > /tmp/pkg/usr/local/bin/gpucloud-hello",
  'chmod 755 /tmp/pkg/usr/local/bin/gpucloud-hello',
  'dpkg-deb --build /tmp/pkg /tmp/hello.deb >/dev/null',
  'dpkg -i /tmp/hello.deb >/dev/null',
  'rm -rf /tmp/pkg /tmp/hello.deb',
  'echo saved-by-test > /root/hello.txt',
  'echo installed',
].join('\n');

interface Listed {
  id: number;
  status: string;
  progress: number;
  error: string | null;
  size_bytes: number;
  digest: string | null;
}

describe('saving a container and starting a new machine from it on another node', () => {
  it('saves with progress, records what is inside, and another node starts it with the file and the package', async () => {
    const alice = new ApiClient(cp.url);
    await alice.register('save_alice');
    const bought = await alice.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${marketA.productId}/purchase`,
      purchaseBody(marketA, { instanceName: 'source-box' }),
    );
    expect(bought.status).toBe(201);
    const source = bought.body.container_id;
    expect((await alice.request<{ status: string }>('GET', `/api/containers/${source}`)).body.status).toBe(
      'running',
    );
    expect(await sh(source, INSTALL_PACKAGE)).toContain('installed');

    const saved = await alice.request<{ image_id: number }>('POST', `/api/containers/${source}/save-image`, {
      name: 'hello-env',
      tag: 'v1',
      description: '带 hello 包的环境',
    });
    expect(saved.status).toBe(202);
    const imageId = saved.body.image_id;
    // One save of a container at a time.
    const second = await alice.request<{ detail: string }>('POST', `/api/containers/${source}/save-image`, {
      name: 'hello-env',
      tag: 'v2',
    });
    expect(second.status).toBe(409);

    const seen: number[] = [];
    let image: Listed | undefined;
    const deadline = Date.now() + 240_000;
    for (;;) {
      const list = await alice.request<{ images: Listed[] }>('GET', '/api/images/mine');
      image = list.body.images.find((i) => i.id === imageId);
      if (image?.status !== 'saving') break;
      seen.push(image.progress);
      if (Date.now() > deadline) throw new Error('the save did not finish in 240 s');
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(image?.error ?? null).toBeNull();
    expect(image?.status).toBe('ready');
    expect(image?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(image?.size_bytes).toBeGreaterThan(0);
    // 保存中 n% was seen, and only went forward.
    expect(seen.length).toBeGreaterThan(0);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);

    const detail = await alice.request<{
      contents: {
        os: { id: string } | null;
        apt_added: { name: string; version: string }[] | null;
        base: { image: string };
        layers: { added: boolean }[];
      };
      source_container: { id: string; name: string } | null;
    }>('GET', `/api/images/${imageId}`);
    expectServed(imageDetailReply, detail.body);
    expect(detail.body.source_container).toEqual({ id: source, name: 'source-box' });
    expect(detail.body.contents.os?.id).toBe('debian');
    expect(detail.body.contents.apt_added).toContainEqual({ name: 'gpucloud-hello', version: '1.2.3' });
    expect(detail.body.contents.base.image).toBe(BASE_IMAGE);
    expect(detail.body.contents.layers.some((l) => l.added)).toBe(true);
    const dockerfileText = await (
      await fetch(`${cp.url}/api/images/${imageId}/dockerfile`, {
        headers: { authorization: `Bearer ${alice.token}` },
      })
    ).text();
    expect(dockerfileText).toContain('gpucloud-hello=1.2.3');

    // The source container was paused for the commit only: still running, with its GPU, its file
    // still there.
    expect(await cp.knex('gpu_allocations').where({ container_id: source }).count('* as n').first()).toEqual({
      n: 1,
    });
    expect((await alice.request<{ status: string }>('GET', `/api/containers/${source}`)).body.status).toBe(
      'running',
    );
    expect(await sh(source, 'cat /root/hello.txt')).toBe('saved-by-test');

    // Both agents share one Docker engine here: without the local copy, node B must pull it from
    // the registry.
    const host = cp.services.registry.host;
    const repository = `${host}/u${(await cp.knex('users').where({ username: 'save_alice' }).first('id')).id}/img${imageId}`;
    for (const local of await docker().listImages()) {
      const mine = [...(local.RepoTags ?? []), ...(local.RepoDigests ?? [])].filter((r) =>
        r.startsWith(repository),
      );
      for (const ref of mine)
        await docker()
          .getImage(ref)
          .remove({ noprune: false })
          .catch(() => undefined);
    }

    const fromImage = await alice.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${marketB.productId}/purchase`,
      purchaseBody(marketB, { instanceName: 'from-image', imageType: 'custom', customImageId: imageId }),
    );
    expect(fromImage.status).toBe(201);
    const copy = fromImage.body.container_id;
    const made = await alice.request<{ status: string; start_error?: string | null }>(
      'GET',
      `/api/containers/${copy}`,
    );
    expect(made.body.status, JSON.stringify(made.body)).toBe('running');
    const row = await cp.knex('containers').where({ id: copy }).first();
    expect(Number(row.node_id)).toBe(marketB.nodeId);
    expect(row.image).toBe(`${repository}@${image?.digest}`);
    expect(await sh(copy, 'cat /root/hello.txt')).toBe('saved-by-test');
    expect(await sh(copy, 'dpkg-query -W gpucloud-hello')).toMatch(/^gpucloud-hello\s+1\.2\.3$/);
    expect(await sh(copy, 'gpucloud-hello')).toBe('hello-from-package');

    // The MCP API's create_container takes the image by id too.
    const viaMcp = await alice.request<{ container_id: string; status: string }>(
      'POST',
      '/api/mcp/containers',
      {
        name: 'mcp-from-image',
        image_id: imageId,
        product_id: marketA.productId,
        password: 'Secret-pass-123',
      },
    );
    expect(viaMcp.status, JSON.stringify(viaMcp.body)).toBe(201);
    const mcpRow = await cp.knex('containers').where({ id: viaMcp.body.container_id }).first();
    expect(Number(mcpRow.custom_image_id)).toBe(imageId);
    expect(mcpRow.status).toBe('running');
    expect(await sh(viaMcp.body.container_id, 'cat /root/hello.txt')).toBe('saved-by-test');
    expect(
      (await alice.request('DELETE', `/api/mcp/containers/${viaMcp.body.container_id}`)).status,
    ).toBeLessThan(300);

    // In use: not deleted; released, it goes from the registry.
    const refused = await alice.request<{ detail: string }>('DELETE', `/api/images/${imageId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('镜像正在被容器 from-image 使用，请先释放该容器');
    expect((await alice.request('DELETE', `/api/containers/${copy}`)).status).toBeLessThan(300);
    expect((await alice.request('DELETE', `/api/images/${imageId}`)).status).toBe(200);
    const gone = await alice.request<{ detail: string }>(
      'POST',
      `/api/cloud-products/${marketB.productId}/purchase`,
      purchaseBody(marketB, { imageType: 'custom', customImageId: imageId }),
    );
    expect(gone.status).toBe(400);
    expect(gone.body.detail).toBe('镜像不存在');
  }, 400_000);
});
