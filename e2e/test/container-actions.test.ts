import type { ApiClient } from '@gpucloud/control-plane/test-harness';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyBaseInstance, confirmPopover, registerUser, signedInContext, toast } from './console-helpers.js';
import { launchBrowser, type Platform, startPlatform } from './platform.js';
import { sshExec } from './ssh.js';

let platform: Platform;
let browser: Browser;
let api: ApiClient;
let context: BrowserContext;
let page: Page;
let containerId: string;

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchBrowser();
  api = await registerUser(platform, 'actions_user');
  containerId = await buyBaseInstance(api, 'actions-box', 2);
  ({ context, page } = await signedInContext(browser, platform, api, { username: 'actions_user' }));
  await page.goto(`${platform.url}/user/containers`);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await platform?.close();
});

const row = (): Locator => page.getByTestId(`container-row-${containerId}`);
const waitStatus = (label: string) => row().getByText(label, { exact: true }).waitFor({ timeout: 60_000 });

async function more(item: string) {
  await row().getByRole('button', { name: '更多' }).click();
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: item }).click();
}

async function closeDrawer() {
  await page.locator('.ant-drawer:visible').getByRole('button', { name: '关闭' }).first().click();
}

async function connection(): Promise<{ host: string; port: number; password: string }> {
  await row().getByRole('button', { name: '复制连接信息' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const match = /^ssh -p (\d+) root@(\S+)\n密码：(\S+)$/.exec(copied);
  if (!match) throw new Error(`unexpected connection info: ${copied}`);
  return { port: Number(match[1]), host: match[2] as string, password: match[3] as string };
}

describe('container actions in the browser', () => {
  it('copies the connection info, which opens an SSH session', async () => {
    await waitStatus('运行中');
    const { host, port, password } = await connection();
    expect(await sshExec({ host, port, password, command: 'echo ok-$((1+2))' })).toContain('ok-3');
  });

  it('stops after confirmation and starts again', async () => {
    await row().getByRole('button', { name: '停止' }).click();
    await confirmPopover(page);
    await waitStatus('已停止');
    await row().getByRole('button', { name: '启动' }).click();
    await waitStatus('运行中');
  });

  it('resets the password and puts the new one on the clipboard', async () => {
    const before = await connection();
    await more('重置密码');
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    // Either toast: a refusal fails the test with its reason instead of a bare timeout.
    const outcome = page
      .locator('.ant-message-notice-content')
      .filter({ hasText: /密码重置成功|密码重置失败/ })
      .first();
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.textContent()).toContain('密码重置成功');
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 10_000 })
      .not.toContain('ssh -p');
    const password = await page.evaluate(() => navigator.clipboard.readText());
    expect(password).not.toBe(before.password);
    expect(password.length).toBeGreaterThanOrEqual(8);
    const out = await sshExec({
      host: before.host,
      port: before.port,
      password,
      command: 'echo new-pass-ok',
    });
    expect(out).toContain('new-pass-ok');
  });

  it('changes the custom ports: the container restarts and shows the new port', async () => {
    const port = 15000 + Math.floor(Math.random() * 4000);
    await more('修改端口');
    const dialog = page.getByRole('dialog', { name: /修改端口/ });
    await dialog.getByText(/保存后容器将重启/).waitFor();
    await dialog.getByLabel('端口号').fill('abc');
    await dialog.getByRole('button', { name: '添加' }).click();
    await dialog.getByText('请输入有效的端口号').waitFor();
    await dialog.getByLabel('端口号').fill('25000');
    await dialog.getByRole('button', { name: '添加' }).click();
    await dialog.getByText('端口号必须在10000-20000之间').waitFor();
    await dialog.getByLabel('端口号').fill(String(port));
    await dialog.getByRole('button', { name: '添加' }).click();
    await dialog.locator('.ant-tag', { hasText: String(port) }).waitFor();
    await dialog.getByRole('button', { name: '保存' }).click();
    await toast(page, '端口映射已更新').waitFor({ timeout: 120_000 });
    await page
      .getByTestId(`custom-ports-${containerId}`)
      .getByText(String(port))
      .waitFor({ timeout: 30_000 });
    await waitStatus('运行中');
  });

  it('checks the mount dialog and saves a mount of the user’s volume for the next start', async () => {
    const volume = await api.request('POST', '/api/storage/volumes', { name: 'mydata', path: '/data' });
    expect(volume.status).toBe(201);
    await more('修改挂载');
    const dialog = page.getByRole('dialog', { name: /修改挂载/ });
    await dialog.getByRole('button', { name: '添加挂载点' }).click();
    await dialog.getByLabel('挂载点1源路径').fill('my-data');
    await dialog.getByLabel('挂载点1目标路径').fill('/data');
    await dialog.getByText('挂载点源路径只能包含字母和数字').waitFor();
    await dialog.getByLabel('挂载点1源路径').fill('mydata');
    await dialog.getByLabel('挂载点1目标路径').fill('data');
    await dialog.getByText('挂载点目标路径必须以 / 开头').waitFor();
    await dialog.getByLabel('挂载点1目标路径').fill('/data');
    await dialog.getByLabel('挂载点1源路径').fill('nosuch');
    await dialog.getByText('该节点上没有这个存储卷').waitFor();
    await dialog.getByRole('button', { name: '保存' }).click();
    await toast(page, '更新挂载点失败：存储卷 nosuch 不存在').waitFor();
    await dialog.getByLabel('挂载点1源路径').fill('mydata');
    await dialog.getByText('存储卷：actions_user-mydata').waitFor();
    await dialog.getByRole('button', { name: '保存' }).click();
    await toast(page, '挂载点已更新，重启生效！').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await more('修改挂载');
    const again = page.getByRole('dialog', { name: /修改挂载/ });
    await again.getByText('待重启生效').waitFor();
    await again.getByText('actions_user-mydata → /data').first().waitFor();
    await again.getByRole('button', { name: '取消' }).click();
  });

  it('streams the logs', async () => {
    await row().getByRole('button', { name: '日志' }).click();
    const log = page.getByTestId('log-output');
    await expect.poll(() => log.textContent(), { timeout: 20_000 }).toContain('SSH 服务监听端口 22');
    await closeDrawer();
    await log.waitFor({ state: 'detached' });
  });

  it('opens a console: runs a command and interrupts a long one with Ctrl-C', async () => {
    await more('终端');
    const state = page.getByTestId('console-state');
    await expect.poll(() => state.textContent(), { timeout: 15_000 }).toBe('已连接');
    const output = page.locator('[data-testid="console-output"] .xterm-rows');
    const lines = async () => (await output.locator(':scope > div').allTextContents()).map((l) => l.trim());
    await page.locator('[data-testid="console-output"] .xterm').click();
    await page.keyboard.type('echo $((6*7))');
    await page.keyboard.press('Enter');
    await expect.poll(lines, { timeout: 15_000 }).toContain('42');
    await page.keyboard.type('sleep 60; echo slept');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Ctrl+C' }).click();
    await page.locator('[data-testid="console-output"] .xterm').click();
    await page.keyboard.type('echo after-$((40+2))');
    await page.keyboard.press('Enter');
    await expect.poll(lines, { timeout: 10_000 }).toContain('after-42');
    // The interrupted sleep never printed (the command line itself shows the word, hence whole lines).
    expect(await lines()).not.toContain('slept');
    await closeDrawer();
    await state.waitFor({ state: 'detached' });
  });

  it('offers 无卡模式 when the GPUs were taken while it was stopped', async () => {
    await row().getByRole('button', { name: '停止' }).click();
    await confirmPopover(page);
    await waitStatus('已停止');
    // Another user takes all eight GPUs.
    const other = await registerUser(platform, 'gpu_hog');
    const hog = await buyBaseInstance(other, 'hog-box', 8);
    await row().getByRole('button', { name: '启动' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText(/GPU 资源不足，当前可用 0 卡/).waitFor();
    // A click that lands while antd's confirm is still zooming in can be lost: click until the
    // confirm goes (a click on the button while its request runs is ignored: it shows loading).
    await expect
      .poll(
        async () => {
          if (await confirm.isVisible()) {
            await confirm
              .getByRole('button', { name: '无卡模式启动' })
              .click({ timeout: 2000 })
              .catch(() => {});
          }
          return confirm.isVisible();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(false);
    await waitStatus('运行中');
    await row().getByText('无卡模式', { exact: true }).waitFor();
    expect((await other.request('DELETE', `/api/containers/${hog}`)).status).toBe(200);
    // The mount saved earlier took effect with this start.
    const { host, port, password } = await connection();
    expect(await sshExec({ host, port, password, command: 'grep -c " /data " /proc/mounts' })).toContain('1');
  });

  it('destroys it after confirmation', async () => {
    await row().getByRole('button', { name: '销毁' }).click();
    await confirmPopover(page);
    await row().waitFor({ state: 'detached', timeout: 60_000 });
    const left = await platform.cp.knex('containers').where({ id: containerId }).first();
    expect(left?.status).toBe('deleted');
  });
});
