import { ApiClient, outboxCode } from '@gpucloud/control-plane/test-harness';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Platform, startPlatform } from './platform.js';

let platform: Platform;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await platform?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
  contexts.push(context);
  const page = await context.newPage();
  return page;
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.locator('form[id="login"] button[type="submit"]').click();
}

describe('accounts in the browser', () => {
  it('registers with the e-mail code read from the outbox', async () => {
    const page = await newPage();
    await page.goto(`${platform.url}/register`);
    const send = page.getByTestId('send-email-code');
    expect(await send.isDisabled()).toBe(true);
    await page.getByLabel('用户名').fill('web_alice');
    await page.getByLabel('邮箱').fill('web_alice@example.com');
    await send.click();
    await page.getByText('验证码已发送').waitFor();
    await expect.poll(() => send.textContent()).toMatch(/^\d+秒后重新发送$/);
    expect(await send.isDisabled()).toBe(true);

    await page.getByLabel('验证码').fill(await outboxCode(platform.url, 'web_alice@example.com'));
    await page.getByLabel('密码', { exact: true }).fill('secret123');
    await page.getByLabel('确认密码').fill('secret123');
    await page.getByRole('button', { name: '注册', exact: true }).click();
    await page.getByText('注册成功！').waitFor();
    await page.waitForURL(/\/market$/);
    await page.getByTestId('user-menu').getByText('web_alice').waitFor();
  });

  it('signs in and returns to the page asked for; logout revokes the session', async () => {
    await new ApiClient(platform.url).register('web_bob');
    const page = await newPage();
    await page.goto(`${platform.url}/user/profile`);
    await page.waitForURL(/\/login\?redirect=%2Fuser%2Fprofile/);
    await signIn(page, 'web_bob', 'secret123');
    await page.waitForURL(/\/user\/profile$/);
    await page.getByText('web_bob@example.com').waitFor();
    const token = await page.evaluate(() => window.localStorage.getItem('token'));

    await page.getByTestId('user-menu').hover();
    await page.getByText('退出登录').click();
    await page.waitForURL(/\/login/);
    const after = await new ApiClient(platform.url).request('GET', '/api/user/info', undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(after.status).toBe(401);
  });

  it('signs in with WeChat through the sandbox identity page; the same nickname is the same account', async () => {
    const usernames: string[] = [];
    for (let round = 0; round < 2; round++) {
      const page = await newPage();
      await page.goto(`${platform.url}/login`);
      await page.getByTestId('wechat-login').click();
      await page.waitForURL(/\/wechat-sandbox\?/);
      await page.getByLabel('微信昵称').fill('沙箱小王');
      await page.getByRole('button', { name: '确认授权' }).click();
      await page.waitForURL(/\/market$/);
      await page.getByTestId('user-menu').getByText('沙箱小王').waitFor();
      const user = await page.evaluate(
        () => JSON.parse(window.localStorage.getItem('user') ?? '{}') as { username: string },
      );
      usernames.push(user.username);
    }
    expect(usernames[0]).toMatch(/^wx_/);
    expect(usernames[1]).toBe(usernames[0]);
  });

  it('resets a forgotten password with the five-step wizard', async () => {
    await new ApiClient(platform.url).register('web_carol', 'old-password');
    const page = await newPage();
    await page.goto(`${platform.url}/login`);
    await page.getByText('忘记密码？').click();
    await page.waitForURL(/\/forgot-password$/);
    // The address changes before the lazily loaded wizard replaces the login form (routes render
    // in a transition), and both have a 用户名 field: type into the wizard's own.
    await page.getByRole('heading', { name: '找回密码' }).waitFor();
    await page.getByPlaceholder('请输入要找回密码的用户名').fill('web_carol');
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByText('邮箱 w***@example.com').click();
    await page.getByRole('button', { name: '发送验证码' }).click();
    await page.getByText('验证码已发送至 w***@example.com').waitFor();
    await page.getByLabel('验证码').fill(await outboxCode(platform.url, 'web_carol@example.com'));
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByLabel('新密码', { exact: true }).fill('new-password');
    await page.getByLabel('确认新密码').fill('new-password');
    await page.getByRole('button', { name: '确认重置' }).click();
    await page.getByTestId('reset-step-5').getByText('密码重置成功').waitFor();
    await page.getByRole('button', { name: '去登录' }).click();
    await page.waitForURL(/\/login$/);
    await signIn(page, 'web_carol', 'new-password');
    await page.getByText('登录成功').waitFor();
  });

  it('creates an API key shown once, reveals it for 10 s after the password, uses it on /api/mcp and deletes it', async () => {
    await new ApiClient(platform.url).register('web_dave');
    const page = await newPage();
    await page.goto(`${platform.url}/login?redirect=%2Fuser%2Fprofile`);
    await signIn(page, 'web_dave', 'secret123');
    await page.waitForURL(/\/user\/profile$/);

    await page.getByRole('button', { name: '创建密钥' }).click();
    await page.getByLabel('密钥名称').fill('训练脚本');
    await page.getByRole('button', { name: '创建', exact: true }).click();
    const created = page.getByTestId('created-api-key');
    await created.waitFor();
    const key = (await created.textContent())?.trim() ?? '';
    expect(key).toMatch(/^gpuc_/);
    await page.getByRole('button', { name: '我已保存' }).click();

    const row = page.locator('[data-testid^="api-key-row-"]').first();
    const value = row.getByTestId('api-key-value');
    const masked = `${key.slice(0, 6)}********${key.slice(-4)}`;
    await expect.poll(() => value.textContent()).toBe(masked);

    const whoami = () =>
      new ApiClient(platform.url).request<{ username: string }>('GET', '/api/mcp/whoami', undefined, {
        'X-API-Key': key,
      });
    expect((await whoami()).body.username).toBe('web_dave');

    // 显示 asks for the login password again before the server answers the key.
    await row.getByRole('button', { name: '显示' }).click();
    const prompt = page.getByRole('dialog', { name: '验证登录密码' });
    await prompt.getByLabel('登录密码').fill('secret123');
    await prompt.getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => value.textContent()).toContain(key);
    await expect.poll(() => value.textContent(), { timeout: 15_000, interval: 500 }).toBe(masked);

    await row.getByRole('button', { name: '删除' }).click();
    await page.locator('.ant-popover:visible').getByRole('button', { name: '确定' }).click();
    await page.getByText('删除成功').waitFor();
    await expect.poll(() => page.locator('[data-testid^="api-key-row-"]').count()).toBe(0);
    expect((await whoami()).status).toBe(401);
  });
});
