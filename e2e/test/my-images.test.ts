import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiClient } from '@gpucloud/control-plane/test-harness';
import Docker from 'dockerode';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_IMAGES } from '../../scripts/lib/test-images.mjs';
import {
  adminClient,
  openPurchaseDialog,
  pickOption,
  registerUser,
  signedInContext,
  toast,
} from './console-helpers.js';
import {
  launchBrowser,
  type Platform,
  startPlatform,
  startTestAgent,
  type TestAgent,
  workerPortBase,
} from './platform.js';
import { sshExec } from './ssh.js';

// 我的镜像 end to end: two nodes (two real agents on the test engine) and the embedded registry
// (Debian's docker-registry, the control plane its token server). A user writes a file and
// installs a Debian package over SSH in a container on the first node, saves it, and starts a
// new machine from the image on the second node, which must pull it from the registry (the
// engine's copy is removed first): the file and the package are there, over SSH. Another user
// can neither see, buy nor pull it; deleting it is refused while a container uses it; the quota
// holds; and the console saves with progress and buys with 自定义镜像.

const DEBS = fileURLToPath(new URL('../../.data/test-images/debs', import.meta.url));

let platform: Platform;
let second: TestAgent;
let browser: Browser;
let owner: ApiClient;
let other: ApiClient;
let debian: { frameworkId: number; versionId: number };
const products: Record<'first' | 'second', { id: number; price: number }> = {
  first: { id: 0, price: 0 },
  second: { id: 0, price: 0 },
};
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

interface Container {
  container_id: string;
  name: string;
  status: string;
  ssh_server: string;
  ssh_port: number;
  password: string;
}

interface Image {
  id: number;
  name: string;
  tag: string;
  status: 'saving' | 'ready' | 'failed';
  progress: number;
  error: string | null;
  digest: string | null;
  size_bytes: number;
  in_use: { id: string; name: string }[];
  contents: {
    os: { id: string } | null;
    apt_added: { name: string; version: string }[] | null;
    base: { image: string; digest: string };
    layers: { added: boolean; size_bytes: number }[];
  } | null;
}

beforeAll(async () => {
  platform = await startPlatform({ registry: true });
  const base = workerPortBase();
  second = await startTestAgent(`${base + 500}-${base + 799}`);
  const node = await platform.cp.services.nodes.upsert({
    name: 'second',
    address: `127.0.0.1:${second.agent.port}`,
    token: second.token,
    region: '二区',
    publicHost: '127.0.0.1',
  });
  await platform.cp.services.products.ensureDefaultProduct(node, 199);

  const admin = await adminClient(platform);
  const framework = await admin.request<{ id: number }>('POST', '/api/admin/frameworks', {
    name: 'Debian',
    ports: { ssh: 22 },
  });
  expect(framework.status).toBe(201);
  const version = await admin.request<{ id: number }>(
    'POST',
    `/api/admin/frameworks/${framework.body.id}/versions`,
    { version: '12', image: TEST_IMAGES.debian, cuda_version: '12.4', ports: { ssh: 22 } },
  );
  expect(version.status).toBe(201);
  debian = { frameworkId: framework.body.id, versionId: version.body.id };

  owner = await registerUser(platform, 'image_owner');
  other = await registerUser(platform, 'image_other');
  const list = await owner.request<{ items: { id: number; price: number; node_id: number }[] }>(
    'GET',
    '/api/cloud-products',
  );
  for (const p of list.body.items) products[p.node_id === node.id ? 'second' : 'first'] = p;
  expect(products.first.id).toBeGreaterThan(0);
  expect(products.second.id).toBeGreaterThan(0);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
  await second?.close();
});

async function buy(
  api: ApiClient,
  on: 'first' | 'second',
  name: string,
  image: { customImageId: number } | 'debian',
): Promise<{ status: number; body: { container_id: string; detail?: string } }> {
  const product = products[on];
  return api.request('POST', `/api/cloud-products/${product.id}/purchase`, {
    instanceName: name,
    gpuCount: 1,
    ...(image === 'debian'
      ? { imageType: 'public', framework: debian.frameworkId, frameworkVersion: debian.versionId }
      : { imageType: 'custom', customImageId: image.customImageId }),
    agreeTerms: true,
    billing_type: 'hourly',
    duration: 1,
    total_price: product.price,
  });
}

async function container(api: ApiClient, id: string): Promise<Container> {
  return (await api.request<Container>('GET', `/api/containers/${id}`)).body;
}

async function ssh(api: ApiClient, id: string, command: string): Promise<string> {
  const c = await container(api, id);
  return sshExec({ host: c.ssh_server, port: c.ssh_port, password: c.password, command });
}

async function waitForImage(api: ApiClient, id: number, seen?: number[]): Promise<Image> {
  const until = Date.now() + 150_000;
  for (;;) {
    const image = (await api.request<Image>('GET', `/api/images/${id}`)).body;
    if (image.status === 'saving') seen?.push(image.progress);
    if (image.status !== 'saving') return image;
    if (Date.now() > until) throw new Error(`image ${id} still saving at ${image.progress}%`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Removes every reference the engine holds to `repository` (the nodes share this test engine). */
async function forgetLocally(repository: string) {
  const images = await docker().listImages();
  for (const image of images) {
    const refs = [...(image.RepoTags ?? []), ...(image.RepoDigests ?? [])].filter(
      (r) => r.startsWith(`${repository}:`) || r.startsWith(`${repository}@`),
    );
    for (const ref of refs)
      await docker()
        .getImage(ref)
        .remove()
        .catch(() => undefined);
  }
}

async function heldLocally(repository: string): Promise<boolean> {
  const images = await docker().listImages();
  return images.some((i) =>
    [...(i.RepoTags ?? []), ...(i.RepoDigests ?? [])].some((r) => r.startsWith(repository)),
  );
}

describe('my images across two nodes and one registry', () => {
  let imageId: number;
  let repository: string;
  let fromImage: string;

  it('saves a container with a written file and an installed package; the other node starts it from the registry', async () => {
    const bought = await buy(owner, 'first', 'env-source', 'debian');
    expect(bought.status).toBe(201);
    const source = bought.body.container_id;
    const deb = readdirSync(DEBS).find((f) => f.startsWith('sensible-utils_'));
    if (!deb) throw new Error(`no sensible-utils .deb in ${DEBS} (the test images' package cache)`);
    // Dropbear takes commands of up to 9,000 characters: the package goes over in pieces.
    const payload = readFileSync(path.join(DEBS, deb)).toString('base64');
    for (let i = 0; i < payload.length; i += 8000) {
      await ssh(owner, source, `echo ${payload.slice(i, i + 8000)} >> /tmp/p.b64`);
    }
    const installed = await ssh(
      owner,
      source,
      'echo saved-by-owner > /root/saved.txt && base64 -d /tmp/p.b64 > /tmp/p.deb && dpkg -i /tmp/p.deb >/dev/null 2>&1; echo rc=$?',
    );
    expect(installed).toContain('rc=0');

    const save = await owner.request<{ image_id: number }>('POST', `/api/containers/${source}/save-image`, {
      name: 'my-env',
      tag: 'v1',
      description: '装好了 sensible-utils',
    });
    expect(save.status).toBe(202);
    imageId = save.body.image_id;
    const progress: number[] = [];
    const image = await waitForImage(owner, imageId, progress);
    expect(image.error).toBeNull();
    expect(image.status).toBe('ready');
    expect(image.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(image.size_bytes).toBeGreaterThan(0);
    // What is inside: Debian, the package the user installed, the base it came from.
    expect(image.contents?.os?.id).toBe('debian');
    expect(image.contents?.apt_added?.map((p) => p.name)).toContain('sensible-utils');
    expect(image.contents?.base.image).toBe(TEST_IMAGES.debian);
    expect(image.contents?.layers.some((l) => l.added)).toBe(true);
    // The source keeps running, its files untouched.
    expect((await container(owner, source)).status).toBe('running');
    expect(await ssh(owner, source, 'cat /root/saved.txt')).toContain('saved-by-owner');

    const registry = platform.cp.services.registry;
    repository = `${registry.host}/${registry.repositoryFor((await owner.request<{ id: number }>('GET', '/api/user/info')).body.id, imageId)}`;
    // The second node must fetch it from the registry: the engine both agents use forgets it.
    await forgetLocally(repository);
    expect(await heldLocally(repository)).toBe(false);

    const copy = await buy(owner, 'second', 'env-copy', { customImageId: imageId });
    expect(copy.status).toBe(201);
    fromImage = copy.body.container_id;
    expect((await container(owner, fromImage)).status).toBe('running');
    expect(await heldLocally(repository)).toBe(true);
    expect(await ssh(owner, fromImage, 'cat /root/saved.txt')).toContain('saved-by-owner');
    expect(await ssh(owner, fromImage, 'dpkg -s sensible-utils')).toContain('Status: install ok installed');
  }, 420_000);

  it('another user can neither see, buy nor pull it', async () => {
    const mine = await other.request<{ images: unknown[] }>('GET', '/api/images/mine');
    expect(mine.status).toBe(200);
    expect(mine.body.images).toEqual([]);
    const seen = await other.request<{ detail: string }>('GET', `/api/images/${imageId}`);
    expect(seen.status).toBe(404);
    expect(seen.body.detail).toBe('镜像不存在');
    const bought = await buy(other, 'second', 'stolen', { customImageId: imageId });
    // A purchase names what it buys: an image that is not the buyer's is a bad choice (400).
    expect(bought.status).toBe(400);
    expect(bought.body.detail).toBe('镜像不存在');
    const dockerfile = await other.request('GET', `/api/images/${imageId}/dockerfile`);
    expect(dockerfile.status).toBe(404);

    // Registry credentials for the other user's own repository do not open this one.
    const registry = platform.cp.services.registry;
    const otherId = (await other.request<{ id: number }>('GET', '/api/user/info')).body.id;
    const grant = registry.grant(registry.repositoryFor(otherId, imageId + 1000), ['pull', 'push']);
    await forgetLocally(repository);
    const pull = (authconfig?: Record<string, string>) =>
      new Promise<void>((resolve, reject) => {
        docker().pull(
          `${repository}:v1`,
          { authconfig },
          (err: Error | null, stream?: NodeJS.ReadableStream) => {
            if (err || !stream) return reject(err ?? new Error('no stream'));
            docker().modem.followProgress(stream, (e: Error | null, events: { error?: string }[]) => {
              const failed = e ?? events.find((x) => x.error);
              if (failed) reject(new Error(String((failed as { error?: string }).error ?? failed)));
              else resolve();
            });
          },
        );
      });
    await expect(pull({ ...grant, serveraddress: grant.server_address })).rejects.toThrow();
    await expect(pull()).rejects.toThrow();
    expect(await heldLocally(`${repository}:v1`)).toBe(false);
  }, 120_000);

  it('refuses to delete it while a container uses it, and enforces the quota', async () => {
    const refused = await owner.request<{ detail: string }>('DELETE', `/api/images/${imageId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('env-copy');

    const admin = await adminClient(platform);
    const ownerId = (await owner.request<{ id: number }>('GET', '/api/user/info')).body.id;
    const quota = await admin.request('PUT', `/api/admin/users/${ownerId}/image-quota`, {
      max_count: 1,
      max_gb: 50,
    });
    expect(quota.status).toBe(200);
    const over = await owner.request<{ detail: string }>('POST', `/api/containers/${fromImage}/save-image`, {
      name: 'second-env',
    });
    expect(over.status).toBe(403);
    expect(over.body.detail).toBe('镜像数量已达上限（1个）');
    const mine = await owner.request<{ quota: { count: number; max_count: number } }>(
      'GET',
      '/api/images/mine',
    );
    expect(mine.body.quota).toMatchObject({ count: 1, max_count: 1 });
    await admin.request('PUT', `/api/admin/users/${ownerId}/image-quota`, { max_count: 10, max_gb: 50 });

    // Released, the image can go: from the list and from the registry.
    const released = await owner.request('DELETE', `/api/containers/${fromImage}`);
    expect(released.status).toBeLessThan(300);
    const deleted = await owner.request('DELETE', `/api/images/${imageId}`);
    expect(deleted.status).toBeLessThan(300);
    expect((await owner.request('GET', `/api/images/${imageId}`)).status).toBe(404);
  }, 180_000);
});

describe('my images in the console', () => {
  let context: BrowserContext;
  let page: Page;
  let user: ApiClient;
  let source: string;

  beforeAll(async () => {
    user = await registerUser(platform, 'image_console');
    ({ context, page } = await signedInContext(browser, platform, user, { username: 'image_console' }));
    const bought = await buy(user, 'first', 'console-src', 'debian');
    expect(bought.status).toBe(201);
    source = bought.body.container_id;
    await ssh(user, source, 'echo from-console > /root/console.txt');
  }, 120_000);
  afterAll(async () => {
    await context?.close();
  });

  it('saves a container from 我的容器 with its progress, then buys a machine from it with 自定义镜像', async () => {
    await page.goto(`${platform.url}/user/containers`);
    const row: Locator = page.getByTestId(`container-row-${source}`);
    await row.getByRole('button', { name: '更多' }).click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '保存镜像' }).click();
    const dialog = page.getByRole('dialog', { name: /保存镜像/ });
    await dialog.getByText('保存时容器会短暂暂停').first().waitFor();
    await dialog.getByLabel('镜像名称').fill('console-env');
    await dialog.getByRole('button', { name: '保存' }).click();
    await page
      .getByTestId('save-image-progress')
      .getByText(/保存中 \d+%/)
      .waitFor();
    await page.getByText('镜像保存成功').waitFor({ timeout: 150_000 });
    await page.getByRole('button', { name: '查看镜像' }).click();
    await page.getByText('debian', { exact: false }).first().waitFor();

    const purchase = await openPurchaseDialog(page, platform);
    await purchase.getByLabel('实例名称').fill('from-console-env');
    await purchase.getByText('自定义镜像', { exact: true }).click();
    await pickOption(page, purchase, '镜像', 'console-env:latest');
    await purchase.getByText('我已阅读并同意服务条款').click();
    await purchase.getByRole('button', { name: '确认创建' }).click();
    await toast(page, '实例已创建').waitFor({ timeout: 60_000 });
    await page.waitForURL(/\/user\/containers$/);
    const rows = await user.request<{ items: { container_id: string; name: string }[] }>(
      'GET',
      '/api/containers',
    );
    const made = rows.body.items.find((c) => c.name === 'from-console-env');
    if (!made) throw new Error('the purchase made no container');
    await page
      .getByTestId(`container-row-${made.container_id}`)
      .getByText('运行中', { exact: true })
      .waitFor({
        timeout: 120_000,
      });
    expect(await ssh(user, made.container_id, 'cat /root/console.txt')).toContain('from-console');
  }, 420_000);
});
