import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseFramework, registerUser, signedInContext, toast } from './console-helpers.js';
import { launchBrowser, type Platform, startPlatform } from './platform.js';

/** expect.poll gives up after 1 s by default; a loaded test machine needs longer. */
const WAIT = { timeout: 15_000 };

let platform: Platform;
let browser: Browser;
let baseImageId: number;

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchBrowser();
  // The seeded images need a registry; an app on the locally built Base image can really run here.
  const anyone = await registerUser(platform, 'apps_seed');
  const base = await baseFramework(anyone);
  const [row] = await platform.cp
    .knex('images')
    .insert({
      name: 'E2E Base 应用',
      icon: '',
      description: '本地 busybox + sshd 镜像，用于端到端测试',
      category: 'ml',
      framework_version_id: base.versionId,
    })
    .returning('id');
  baseImageId = Number((row as { id: string | number }).id);
});
afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

const card = (page: Page, name: string) => page.locator('[data-testid^="app-card-"]', { hasText: name });

describe('the app market in the browser', () => {
  it('filters by category and search, and remembers a dismissed banner', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${platform.url}/apps`);
    await card(page, 'PyTorch 2.5.1').waitFor();
    await card(page, 'E2E Base 应用').waitFor();
    const pytorch = card(page, 'PyTorch 2.5.1');
    await pytorch.getByText('CUDA 12.4', { exact: true }).waitFor();
    await pytorch.getByRole('button', { name: '立即部署' }).waitFor();
    await pytorch.getByRole('button', { name: '详情' }).waitFor();

    const sidebar = page.getByRole('navigation', { name: '应用分类' });
    await sidebar.getByText('TensorFlow', { exact: true }).click();
    await card(page, 'TensorFlow 2.17').waitFor();
    await expect.poll(() => card(page, 'PyTorch 2.5.1').count(), WAIT).toBe(0);
    await sidebar.getByText('机器学习', { exact: true }).click();
    await card(page, 'E2E Base 应用').waitFor();
    await expect.poll(() => card(page, 'TensorFlow 2.17').count(), WAIT).toBe(0);
    await sidebar.getByText('全部', { exact: true }).click();
    await page.waitForURL(/\/apps$/);
    await page.getByLabel('搜索应用').fill('Windows');
    await page.getByLabel('搜索应用').press('Enter');
    await page.waitForURL(/\/apps\?search=Windows$/);
    await card(page, 'Windows 10 + CUDA 12.6').waitFor();
    await expect.poll(() => page.locator('[data-testid^="app-card-"]').count(), WAIT).toBe(1);

    const banner = page.getByTestId('apps-banner');
    await banner.waitFor();
    await banner.getByRole('button', { name: '关闭横幅' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await card(page, 'Windows 10 + CUDA 12.6').waitFor();
    expect(await page.getByTestId('apps-banner').count()).toBe(0);
    await context.close();
  });

  it('立即部署 while signed out: sign in, then the market has the image preselected', async () => {
    await registerUser(platform, 'apps_buyer');
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${platform.url}/apps`);
    await card(page, 'PyTorch 2.5.1').getByRole('button', { name: '立即部署' }).click();
    await page.waitForURL(/\/login\?redirect=(%2F|\/)market$/);
    expect(await page.evaluate(() => window.localStorage.getItem('pendingDeploy'))).toContain(
      '"imageType":"public"',
    );

    await page.getByLabel('用户名').fill('apps_buyer');
    await page.getByLabel('密码', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL(/\/market\?framework=\d+&version=\d+&imageType=public$/);
    expect(await page.evaluate(() => window.localStorage.getItem('pendingDeploy'))).toBeNull();
    await expect
      .poll(() => page.getByTestId('market-preset').textContent(), WAIT)
      .toContain('PyTorch 2.5.1-cuda12.4');
    // Nothing opens by itself; buying shows the chosen framework.
    expect(await page.getByRole('dialog', { name: '创建实例' }).count()).toBe(0);
    await page.locator('[data-testid^="buy-"]').first().click();
    const dialog = page.getByRole('dialog', { name: '创建实例' });
    await dialog.locator('.ant-select-selection-item', { hasText: 'PyTorch' }).waitFor();
    await dialog.locator('.ant-select-selection-item', { hasText: '2.5.1-cuda12.4' }).waitFor();
    expect(await dialog.getByRole('radio', { name: '公共镜像' }).isChecked()).toBe(true);
    await context.close();
  });

  it('the deploy drawer creates a running container', async () => {
    const api = await registerUser(platform, 'apps_deployer');
    const { page, context } = await signedInContext(browser, platform, api, { username: 'apps_deployer' });
    await page.goto(`${platform.url}/apps`);
    await page.getByTestId(`app-card-${baseImageId}`).getByRole('button', { name: '详情' }).click();
    const details = page.locator('.ant-drawer:visible', { hasText: '应用详情' });
    await details.getByText('本地 busybox + sshd 镜像，用于端到端测试').first().waitFor();
    await details.getByRole('button', { name: '一键部署' }).click();

    const drawer = page.locator('.ant-drawer:visible', { hasText: '一键部署 - E2E Base 应用' });
    await drawer.getByLabel('实例名称').fill('app-box');
    await drawer.getByRole('radio', { name: 'RTX 4090' }).check();
    // The price of the server the deploy will use, before anything is charged: one hour of one card.
    const quote = await api.request<{ name: string; price: number }>(
      'GET',
      `/api/apps/deploy-quote?image_id=${baseImageId}&gpu_type=rtx4090&gpuCount=1`,
    );
    expect(quote.status).toBe(200);
    const price = `¥${quote.body.price.toFixed(2)}`;
    const summary = drawer.getByTestId('deploy-price');
    await expect.poll(() => summary.getByTestId('purchase-total').textContent(), WAIT).toBe(price);
    expect(await summary.getByTestId('deploy-hourly').textContent()).toBe(`${price}/时`);
    await summary.getByText(quote.body.name, { exact: true }).waitFor();
    // 部署 stays disabled until the terms (the purchase dialog's words and the agreement's link) are ticked.
    const deploy = drawer.getByTestId('deploy-submit');
    expect(await deploy.isDisabled()).toBe(true);
    const terms = drawer.getByTestId('deploy-terms');
    expect(await terms.locator('xpath=ancestor::label').textContent()).toBe('我已阅读并同意服务条款');
    expect(await drawer.getByRole('link', { name: '服务条款' }).getAttribute('href')).toBe('/agreement');
    await drawer.getByRole('button', { name: '添加环境变量' }).click();
    await drawer.getByLabel('环境变量1名称').fill('NVIDIA_VISIBLE_DEVICES');
    await drawer.getByLabel('环境变量1值').fill('all');
    await terms.check();
    await expect.poll(() => deploy.isEnabled(), WAIT).toBe(true);
    await deploy.click();
    await drawer.getByText('不能设置 NVIDIA_ 开头的环境变量（NVIDIA_REQUIRE_* 除外）').waitFor();
    await drawer.getByLabel('环境变量1名称').fill('APP_MODE');
    await deploy.click();

    await toast(page, '实例已创建，正在拉取镜像并启动，进度见我的容器').waitFor({ timeout: 60_000 });
    await page.waitForURL(/\/user\/containers$/);
    const row = page.locator('[data-testid^="container-row-"]', { hasText: 'app-box' });
    await row.getByText('运行中', { exact: true }).waitFor({ timeout: 30_000 });
    const created = await platform.cp.knex('containers').where({ name: 'app-box' }).first();
    expect(created?.status).toBe('running');
    // The hour is billed at the price the drawer showed (hourly: metered while it runs).
    expect(Number(created?.price_fen) * Number(created?.gpu_count)).toBe(Math.round(quote.body.price * 100));
    await context.close();
  });
});
