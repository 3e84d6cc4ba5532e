import { outboxCode } from '@gpucloud/control-plane/test-harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickOption } from './console-helpers.js';
import { launchBrowser, type Platform, startPlatform } from './platform.js';
import { sshExec } from './ssh.js';

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

describe('a new user rents a GPU container in the console', () => {
  it('registers, buys a 1-GPU hourly instance, sees it running, reads its logs, SSHes in, stops, starts and destroys it', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
    const page = await context.newPage();

    // Signed out, the market sends the user to the login page with the way back.
    await page.goto(`${platform.url}/market`);
    await page.waitForURL(/\/login\?redirect=%2Fmarket|\/login\?redirect=\/market/);

    await page.getByRole('button', { name: '没有账号？立即注册' }).click();
    await page.getByLabel('用户名').fill('e2e_user');
    await page.getByLabel('邮箱').fill('e2e@example.com');
    // The code goes out by e-mail; without SMTP settings the sandbox outbox keeps it.
    await page.getByTestId('send-email-code').click();
    await page.getByText('验证码已发送').waitFor();
    await page.getByLabel('验证码').fill(await outboxCode(platform.url, 'e2e@example.com'));
    await page.getByLabel('密码', { exact: true }).fill('secret123');
    await page.getByLabel('确认密码').fill('secret123');
    await page.getByRole('button', { name: '注册', exact: true }).click();
    await page.getByText('注册成功！').waitFor();
    await page.waitForURL(/\/market$/);

    // The local node's offering, with live availability.
    const buy = page.locator('[data-testid^="buy-"]').first();
    await buy.waitFor();
    await expect(page.locator('[data-testid^="product-row-"]').first().textContent()).resolves.toContain(
      '8/8',
    );
    await buy.click();

    const dialog = page.getByRole('dialog', { name: '创建实例' });
    await dialog.waitFor();
    await dialog.getByLabel('实例名称').fill('e2e-box');
    await pickOption(page, dialog, '框架', 'Base');
    await pickOption(page, dialog, '框架版本', 'busybox-sshd');
    const confirm = dialog.getByRole('button', { name: '确认创建' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByText('我已阅读并同意服务条款').click();
    await expect(dialog.getByTestId('purchase-total').textContent()).resolves.toContain('1.99');
    await confirm.click();

    await page.getByText('实例已创建，正在拉取镜像并启动，进度见我的容器').waitFor({ timeout: 60_000 });
    await page.waitForURL(/\/user\/containers$/);
    const row = page.locator('[data-testid^="container-row-"]').first();
    await row.getByText('运行中').waitFor({ timeout: 30_000 });

    // The log viewer streams the container's output over the WebSocket.
    await row.getByRole('button', { name: '日志' }).click();
    const log = page.getByTestId('log-output');
    await expect.poll(() => log.textContent(), { timeout: 20_000 }).toContain('SSH 服务监听端口 22');
    await page.keyboard.press('Escape');

    // SSH with the host, port and password the console shows.
    await row.getByRole('button', { name: '复制连接信息' }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const match = /^ssh -p (\d+) root@(\S+)\n密码：(\S+)$/.exec(copied);
    expect(match, copied).not.toBeNull();
    const [, port, host, password] = match as RegExpExecArray;
    await row.getByRole('button', { name: '显示密码' }).click();
    await row.getByText(password as string).waitFor();
    await row.getByText(`${host}:${port}`).waitFor();
    const out = await sshExec({
      host: host as string,
      port: Number(port),
      password: password as string,
      command: 'echo rented-$((6*7))',
    });
    expect(out).toContain('rented-42');

    // Stop (with confirmation), start, destroy (with confirmation).
    await row.getByRole('button', { name: '停止' }).click();
    await page.locator('.ant-popover:visible').getByRole('button', { name: '确定' }).click();
    await row.getByText('已停止').waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: '启动' }).click();
    await row.getByText('运行中').waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: '销毁' }).click();
    await page.locator('.ant-popover:visible').getByRole('button', { name: '确定' }).click();
    await expect
      .poll(() => page.locator('[data-testid^="container-row-"]').count(), { timeout: 30_000 })
      .toBe(0);

    const left = await platform.cp.knex('containers').whereNot('status', 'deleted');
    expect(left).toHaveLength(0);
    await context.close();
  });
});
