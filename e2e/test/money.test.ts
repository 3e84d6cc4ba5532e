import { ApiClient } from '@gpucloud/control-plane/test-harness';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickOption, waitForToastsToLeave } from './console-helpers.js';
import { ADMIN, launchBrowser, type Platform, startPlatform } from './platform.js';

let platform: Platform;
let browser: Browser;

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

/** A registered user (e-mail code from the sandbox outbox) signed in in a fresh browser context. */
async function signedIn(username: string): Promise<{ api: ApiClient; context: BrowserContext; page: Page }> {
  const api = new ApiClient(platform.url);
  await api.register(username);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const session = {
    token: api.token ?? '',
    user: JSON.stringify({ username, nickname: '', isAdmin: false }),
  };
  await context.addInitScript((s) => {
    window.localStorage.setItem('token', s.token);
    window.localStorage.setItem('user', s.user);
  }, session);
  return { api, context, page: await context.newPage() };
}

async function balanceText(page: Page): Promise<string> {
  return (await page.getByTestId('balance-amount').textContent()) ?? '';
}

async function topUp(page: Page, context: BrowserContext, amount: string) {
  await page.goto(`${platform.url}/user/balance`);
  await page.getByTestId('top-up').click();
  const dialog = page.getByRole('dialog', { name: '充值' });
  await dialog.getByLabel('充值金额').fill(amount);
  await dialog.getByRole('button', { name: '确认充值' }).click();
  await dialog.getByTestId('payment-qr-image').waitFor();
  // The QR leads to the sandbox payment page: open it as the payer would, and pay.
  const href = await dialog.getByTestId('sandbox-pay-link').getAttribute('href');
  expect(href).toMatch(/\/pay\/sandbox\/P\d+$/);
  const payer = await context.newPage();
  await payer.goto(href as string);
  await payer.getByTestId('sandbox-pay').click();
  await payer.getByText('支付成功').first().waitFor();
  await payer.close();
  // The dialog polls every 3 s and sees SUCCESS.
  await page.getByText('充值成功').waitFor({ timeout: 15_000 });
}

describe('money in the console', () => {
  it('tops up through the sandbox QR page, and the billing records show it', async () => {
    const { page, context } = await signedIn('e2e_money');
    await page.goto(`${platform.url}/user/balance`);
    await expect.poll(() => balanceText(page), { timeout: 15_000 }).toContain('20');
    await topUp(page, context, '88.5');
    await expect.poll(() => balanceText(page), { timeout: 10_000 }).toContain('108.50');
    await page.getByTestId('available-coupons').getByText('0 张').waitFor();

    await page.goto(`${platform.url}/user/billing-records`);
    const rows = page.locator('[data-testid^="record-row-"]');
    // expect.poll gives up after 1 s by default: a page loading on a busy machine takes longer.
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await expect(rows.first().textContent()).resolves.toContain('+¥88.50');
    await expect(rows.first().textContent()).resolves.toContain('微信支付');
    await pickOption(page, page, '类型', '消费');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(0);
    await context.close();
  });

  it('applies for an invoice on a paid order and cancels it', async () => {
    const { api, page, context } = await signedIn('e2e_invoice');
    await topUp(page, context, '50');
    const product = (
      await api.request<{ items: { id: number; price: number }[] }>('GET', '/api/cloud-products')
    ).body.items[0];
    const frameworks = await api.request<{ id: number; name: string }[]>('GET', '/api/frameworks');
    const base = frameworks.body.find((f) => f.name === 'Base');
    const versions = await api.request<{ id: number }[]>('GET', `/api/frameworks/${base?.id}/versions`);
    const bought = await api.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${product?.id}/purchase`,
      {
        instanceName: 'e2e-daily',
        gpuCount: 1,
        needExpand: false,
        imageType: 'public',
        framework: base?.id,
        frameworkVersion: versions.body[0]?.id,
        custom_ports: [],
        agreeTerms: true,
        mounts: [],
        billing_type: 'daily',
        duration: 1,
        total_price: 45.37,
      },
    );
    expect(bought.status).toBe(201);

    await page.goto(`${platform.url}/invoices`);
    await page.getByRole('button', { name: '申请发票' }).click();
    const dialog = page.getByRole('dialog', { name: '申请发票' });
    await waitForToastsToLeave(page);
    await dialog.getByLabel('订单').first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await dialog.getByLabel('发票抬头').fill('上海测试科技有限公司');
    await dialog.getByLabel('税号').fill('91310000MA1FL0000X');
    await expect(dialog.getByLabel('开票金额').inputValue()).resolves.toBe('45.37');
    await dialog.getByRole('button', { name: '提交申请' }).click();
    await page.getByText('发票申请成功').waitFor();
    const row = page.locator('[data-testid^="invoice-row-"]').first();
    await row.getByText('待开具').waitFor();
    await row.getByRole('button', { name: '取消' }).click();
    await page.locator('.ant-popover:visible').getByRole('button', { name: '确定' }).click();
    await page.getByText('发票已取消').waitFor();
    await row.getByText('已取消').waitFor();
    await api.request('DELETE', `/api/containers/${bought.body.container_id}`);
    await context.close();
  });

  it('a coupon marked with 使用 is applied at the next purchase', async () => {
    const { api, page, context } = await signedIn('e2e_coupon');
    const admin = new ApiClient(platform.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const granted = await admin.request('POST', '/api/admin/coupons', {
      name: '新客立减',
      amount: 5,
      minAmount: 1,
      expireDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      usernames: ['e2e_coupon'],
    });
    expect(granted.status).toBe(201);

    await page.goto(`${platform.url}/coupons`);
    const card = page.locator('[data-testid^="coupon-"]').first();
    await card.getByText('新客立减').waitFor();
    await card.getByRole('button', { name: '使用' }).click();
    await card.getByText('将在下次购买或充值时抵扣').waitFor();

    // Buy a 1-GPU hourly instance in the market: the purchase (1.99) reaches the minimum (1).
    await page.goto(`${platform.url}/market`);
    await page.locator('[data-testid^="buy-"]').first().click();
    const dialog = page.getByRole('dialog', { name: '创建实例' });
    await dialog.getByLabel('实例名称').fill('coupon-box');
    await pickOption(page, dialog, '框架', 'Base');
    await pickOption(page, dialog, '框架版本', 'busybox-sshd');
    await dialog.getByText('我已阅读并同意服务条款').click();
    await dialog.getByRole('button', { name: '确认创建' }).click();
    await page.getByText('实例已创建，正在拉取镜像并启动，进度见我的容器').waitFor({ timeout: 60_000 });

    await page.goto(`${platform.url}/coupons`);
    await page.getByText('已使用', { exact: true }).first().click();
    await page
      .locator('[data-testid^="coupon-"]')
      .first()
      .getByText(/已用于 订单 O\d+/)
      .waitFor();
    const balance = await api.request<{ balance: number }>('GET', '/api/billing/balance');
    expect(balance.body.balance).toBeGreaterThan(24.9); // 20 + 5, less a few seconds of metering
    const containers = await api.request<{ items: { container_id: string }[] }>('GET', '/api/containers');
    for (const c of containers.body.items) await api.request('DELETE', `/api/containers/${c.container_id}`);
    await context.close();
  });
});
