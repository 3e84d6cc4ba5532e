import type { ApiClient } from '@gpucloud/control-plane/test-harness';
import Docker from 'dockerode';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  buildLayeredImage,
  type LocalRegistry,
  startLocalRegistry,
} from '../../node-agent/test/local-registry.js';
import {
  adminClient,
  openPurchaseDialog,
  pickOption,
  registerUser,
  signedInContext,
  toast,
} from './console-helpers.js';
import { launchBrowser, type Platform, startPlatform } from './platform.js';
import { sshExec } from './ssh.js';

// A purchase of an image the node does not hold: a multi-layer image in a registry on
// 127.0.0.1 (Debian's docker-registry, open like a public one) behind a proxy that answers at
// 160 KiB/s per connection, so the pull lasts long enough for the console's 5-second polls to
// show it: 拉取镜像中 with a percentage that grows, then 运行中, then SSH works.

let platform: Platform;
let browser: Browser;
let registry: LocalRegistry;
let image: string;
let user: ApiClient;
let context: BrowserContext;
let page: Page;
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchBrowser();
  registry = await startLocalRegistry({ throttleBytesPerSecond: 160 * 1024 });
  const source = `gpucloud-test/pull-source:${Date.now().toString(36)}`;
  await buildLayeredImage(docker(), inject('testImage'), source, 4, 1_500_000);
  image = await registry.push(docker(), source, 'gpucloud/layered', 'v1');
  // Only the registry has it now: the purchase pulls every layer.
  await docker().getImage(image).remove();
  await docker().getImage(source).remove();
  const admin = await adminClient(platform);
  const framework = await admin.request<{ id: number }>('POST', '/api/admin/frameworks', {
    name: 'Layered',
    ports: { ssh: 22 },
  });
  const version = await admin.request('POST', `/api/admin/frameworks/${framework.body.id}/versions`, {
    version: 'v1',
    image,
    cuda_version: '12.4',
    ports: { ssh: 22 },
  });
  expect(version.status).toBe(201);
  user = await registerUser(platform, 'pull_user');
  ({ context, page } = await signedInContext(browser, platform, user, { username: 'pull_user' }));
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await platform?.close();
  await docker()
    .getImage(image)
    .remove({ force: true })
    .catch(() => undefined);
  await registry?.close();
});

describe('a purchase of an image the node does not hold', () => {
  it('answers at once, shows 拉取镜像中 with a growing percentage, then 运行中, and SSH works', async () => {
    const dialog = await openPurchaseDialog(page, platform);
    await dialog.getByLabel('实例名称').fill('layered-box');
    await pickOption(page, dialog, '框架', 'Layered');
    await pickOption(page, dialog, '框架版本', 'v1');
    await dialog.getByText('我已阅读并同意服务条款').click();
    const asked = Date.now();
    await dialog.getByRole('button', { name: '确认创建' }).click();
    await toast(page, '实例已创建，正在拉取镜像并启动，进度见我的容器').waitFor({ timeout: 30_000 });
    // The purchase answered while the pull had hardly begun.
    expect(Date.now() - asked).toBeLessThan(10_000);
    await page.waitForURL(/\/user\/containers$/);

    const row = page.locator('[data-testid^="container-row-"]').first();
    const seen: number[] = [];
    const deadline = Date.now() + 180_000;
    for (;;) {
      const text = (await row.textContent()) ?? '';
      const pulling = /拉取镜像中\s*(\d+)%/.exec(text);
      if (pulling) {
        const percent = Number(pulling[1]);
        if (seen.at(-1) !== percent) seen.push(percent);
      } else if (text.includes('运行中')) {
        break;
      } else if (/失败|异常/.test(text)) {
        throw new Error(`the container failed: ${text}`);
      }
      if (Date.now() > deadline) throw new Error(`still not running: ${text}; seen ${seen.join(', ')}`);
      await page.waitForTimeout(250);
    }
    // The console showed the pull move (at least two different figures, never backwards).
    expect(seen.length, `percentages seen: ${seen.join(', ')}`).toBeGreaterThanOrEqual(2);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(seen.some((p) => p > 0 && p < 100)).toBe(true);

    const list = await user.request<{
      items: { container_id: string; ssh_port: number; password: string }[];
    }>('GET', '/api/containers');
    const bought = list.body.items[0];
    expect(bought).toBeDefined();
    const out = await sshExec({
      host: '127.0.0.1',
      port: bought?.ssh_port as number,
      password: bought?.password as string,
      command: 'ls /layer-0.bin /layer-3.bin && echo pulled-$((6*7))',
    });
    expect(out).toContain('pulled-42');
    // The node now holds it: the market marks it for the next buyer.
    const products = await user.request<{ items: { warm_version_ids: number[] }[] }>(
      'GET',
      '/api/cloud-products',
    );
    expect(products.body.items[0]?.warm_version_ids.length).toBeGreaterThan(1);
  });
});
