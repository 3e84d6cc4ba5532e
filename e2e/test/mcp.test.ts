import type { ApiClient } from '@gpucloud/control-plane/test-harness';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminClient,
  confirmPopover,
  pickOption,
  registerUser,
  signedInContext,
  toast,
} from './console-helpers.js';
import { launchBrowser, type Platform, startPlatform } from './platform.js';
import { sshExec } from './ssh.js';

const UBUNTU_IMAGE = 'Ubuntu 22.04 + CUDA 12.4 Jupyter';
const LOCAL_BASE_IMAGE = 'gpucloud/base:local';

let platform: Platform;
let browser: Browser;
let api: ApiClient;
let context: BrowserContext;
let page: Page;
let containerId: string;

interface AdminVersion {
  id: number;
  version: string;
  cuda_version: string;
  system_type: string;
  ports: Record<string, unknown>;
  mounts: unknown[];
}

/** This host has no registry: the admin points the Ubuntu version at the locally built image. */
async function runUbuntuOnLocalImage(): Promise<void> {
  const admin = await adminClient(platform);
  const res = await admin.request<{ items: { name: string; versions: AdminVersion[] }[] }>(
    'GET',
    '/api/admin/frameworks',
  );
  const version = res.body.items.find((f) => f.name === 'Ubuntu')?.versions[0];
  if (!version) throw new Error('no Ubuntu version');
  const put = await admin.request('PUT', `/api/admin/framework-versions/${version.id}`, {
    version: version.version,
    image: LOCAL_BASE_IMAGE,
    cuda_version: version.cuda_version,
    system_type: version.system_type,
    ports: version.ports,
    mounts: version.mounts,
  });
  if (put.status !== 200) throw new Error(`version update failed: ${JSON.stringify(put.body)}`);
}

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchBrowser();
  await runUbuntuOnLocalImage();
  api = await registerUser(platform, 'mcp_e2e_user');
  ({ context, page } = await signedInContext(browser, platform, api, { username: 'mcp_e2e_user' }));
  await page.goto(`${platform.url}/user/mcp`);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await platform?.close();
});

const row = (): Locator => page.getByTestId(`mcp-row-${containerId}`);
const waitStatus = (label: string) => row().getByText(label, { exact: true }).waitFor({ timeout: 60_000 });
const button = (name: string) => row().getByRole('button', { name, exact: true });

describe('the MCP dashboard in the browser', () => {
  it('creates a container from the dashboard: it runs, with the chosen password over SSH', async () => {
    await page.getByRole('button', { name: '创建容器' }).click();
    const dialog = page.getByRole('dialog', { name: '创建容器' });
    await dialog.getByLabel('名称').fill('mcp-e2e-box');
    await dialog.getByRole('button', { name: '创建', exact: true }).click();
    await toast(page, '请填写所有必填字段').waitFor();

    await pickOption(page, dialog, '镜像', UBUNTU_IMAGE);
    await pickOption(page, dialog, '服务器', 'local');
    await dialog.getByLabel('GPU 数量').fill('2');
    await dialog.getByLabel('密码').fill('E2e-mcp-pass-9');
    await dialog.getByRole('button', { name: '创建', exact: true }).click();
    await toast(page, '创建成功').waitFor({ timeout: 120_000 });

    const listed = await api.request<{ items: { container_id: string; gpu_count: number }[] }>(
      'GET',
      '/api/mcp/containers',
    );
    expect(listed.body.items).toHaveLength(1);
    containerId = listed.body.items[0]?.container_id as string;
    expect(listed.body.items[0]?.gpu_count).toBe(2);
    await waitStatus('运行中');
    await row().getByText(UBUNTU_IMAGE).waitFor();
    expect(await button('启动').isDisabled()).toBe(true);
    expect(await button('停止').isEnabled()).toBe(true);

    const ssh = await row()
      .getByText(/^ssh -p \d+ root@/)
      .textContent();
    const match = /^ssh -p (\d+) root@(\S+)$/.exec(ssh ?? '');
    if (!match) throw new Error(`no ssh command: ${ssh}`);
    const out = await sshExec({
      host: match[2] as string,
      port: Number(match[1]),
      password: 'E2e-mcp-pass-9',
      command: 'echo mcp-$((40+2))',
    });
    expect(out).toContain('mcp-42');
  });

  it('shows the logs', async () => {
    await button('日志').click();
    const dialog = page.getByRole('dialog', { name: /容器日志/ });
    const output = dialog.getByTestId('mcp-log-output');
    await expect
      .poll(
        async () => {
          if (!(await output.isVisible())) await dialog.getByRole('button', { name: '刷新' }).click();
          return (await output.isVisible()) ? await output.textContent() : '';
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toContain('SSH 服务监听端口 22');
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('stops after confirmation; the filter follows the status', async () => {
    await button('停止').click();
    await confirmPopover(page);
    await toast(page, '停止成功').waitFor({ timeout: 60_000 });
    await waitStatus('已停止');
    expect(await button('启动').isEnabled()).toBe(true);
    expect(await button('停止').isDisabled()).toBe(true);

    const filter = page.getByTestId('mcp-status-filter');
    await filter.getByText('运行中', { exact: true }).click();
    await row().waitFor({ state: 'detached' });
    await filter.getByText('已停止', { exact: true }).click();
    await row().waitFor();
    await filter.getByText('全部', { exact: true }).click();
  });

  it('deletes after an irreversible confirmation', async () => {
    await button('删除').click();
    await page
      .locator('.ant-popover:visible')
      .getByText(/此操作不可恢复/)
      .waitFor();
    await confirmPopover(page);
    await toast(page, '删除成功').waitFor({ timeout: 60_000 });
    await row().waitFor({ state: 'detached' });
    const left = await platform.cp.knex('containers').where({ id: containerId }).first();
    expect(left?.status).toBe('deleted');
  });
});
