import type { ApiClient } from '@gpucloud/control-plane/test-harness';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyBaseInstance, registerUser, signedInContext } from './console-helpers.js';
import { launchBrowser, type Platform, startPlatform } from './platform.js';

// 我的容器 → 更多 → 监控 in Chromium: a running container on the platform's simulated GPUs, its
// samples coming from the real agent, drawn by echarts (lazily loaded) with the 模拟 tag.

let platform: Platform;
let browser: Browser;
let api: ApiClient;
let context: BrowserContext;
let page: Page;
let containerId: string;

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchBrowser();
  api = await registerUser(platform, 'monitor_user');
  containerId = await buyBaseInstance(api, 'monitor-box', 2);
  ({ context, page } = await signedInContext(browser, platform, api, { username: 'monitor_user' }));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await platform?.close();
});

const drawer = (): Locator => page.locator('.ant-drawer:visible');
const chart = (kind: string): Locator => drawer().getByTestId(`metric-chart-${kind}`);

/** How many pixels of the chart's canvas are painted (0: echarts drew nothing). */
function paintedPixels(target: Locator): Promise<number> {
  return target
    .locator('canvas')
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d');
      if (!ctx) return 0;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) painted++;
      return painted;
    });
}

async function expectChartsWithData(): Promise<void> {
  for (const kind of ['utilization', 'memory', 'temperature', 'power']) {
    await chart(kind).locator('canvas').first().waitFor({ timeout: 30_000 });
    await expect.poll(async () => Number(await chart(kind).getAttribute('data-points'))).toBeGreaterThan(0);
    await expect.poll(() => paintedPixels(chart(kind))).toBeGreaterThan(500);
  }
}

describe('监控 in the browser', () => {
  it('opens 监控 of a running container on simulated GPUs: four charts with data and the 模拟 tag', {
    timeout: 300_000,
  }, async () => {
    // The agent samples every 15 s and a minute is written 5 s after it ends: the container's
    // first minute shows up to 80 s after it started. Wait for it before opening.
    await expect
      .poll(
        async () =>
          (
            await api.request<{ samples: unknown[] }>(
              'GET',
              `/api/containers/${containerId}/metrics?range=1h`,
            )
          ).body.samples.length,
        { timeout: 120_000, interval: 1000 },
      )
      .toBeGreaterThan(0);

    await page.goto(`${platform.url}/user/containers`);
    const row = page.getByTestId(`container-row-${containerId}`);
    await row.getByText('运行中', { exact: true }).waitFor({ timeout: 60_000 });
    await row.getByRole('button', { name: '更多' }).click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '监控' }).click();

    await drawer().getByText('GPU 监控').waitFor();
    await drawer().getByTestId('metrics-simulated').getByText('模拟', { exact: true }).waitFor();
    for (const title of ['GPU 利用率', '显存使用率', 'GPU 温度', 'GPU 功耗']) {
      await drawer().getByText(title, { exact: true }).waitFor();
    }
    await expectChartsWithData();

    // The tooltip names each GPU by index and model, with the value and its unit.
    const box = await chart('power').boundingBox();
    if (!box) throw new Error('the power chart has no box');
    await chart('power').hover({ position: { x: box.width - 30, y: box.height / 2 } });
    const tip = drawer()
      .locator('div')
      .filter({ hasText: /GPU \d · RTX 4090：\d+ W \/ 上限 450 W/ })
      .last();
    await tip.waitFor({ timeout: 10_000 });

    // 最近 24 小时: 5-minute points, the last ones from the minutes not rolled up yet.
    await drawer().getByText('最近 24 小时', { exact: true }).click();
    await drawer().getByText('每 5 分钟一个点（平均值，提示中含峰值）').waitFor();
    await expectChartsWithData();
  });
});
