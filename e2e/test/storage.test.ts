import type { ApiClient } from '@gpucloud/control-plane/test-harness';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyBaseInstance, registerUser, signedInContext, toast } from './console-helpers.js';
import { launchBrowser, type Platform, startPlatform } from './platform.js';
import { sshExec } from './ssh.js';

let platform: Platform;
let browser: Browser;
let api: ApiClient;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchBrowser();
  api = await registerUser(platform, 'store_user');
  ({ context, page } = await signedInContext(browser, platform, api, { username: 'store_user' }));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await platform?.close();
});

interface Container {
  ssh_server: string;
  ssh_port: number;
  password: string;
}

async function ssh(id: string, command: string): Promise<string> {
  const c = (await api.request<Container>('GET', `/api/containers/${id}`)).body;
  return sshExec({ host: c.ssh_server, port: c.ssh_port, password: c.password, command });
}

const volumeRow = (name: string) => page.getByTestId(`volume-${name}`);

describe('storage volumes in the console', () => {
  let volumeId: number;

  it('creates a volume from /user/storage', async () => {
    await page.goto(`${platform.url}/user/storage`);
    await page.getByTestId('storage-usage').getByText('0.00 GB / 50 GB').waitFor();
    await page.getByRole('button', { name: '新建存储卷' }).click();
    const dialog = page.getByRole('dialog', { name: '新建存储卷' });
    await dialog.getByLabel('存储卷名称').fill('ckpt');
    await dialog.getByLabel('存储卷路径').fill('/root/ckpt');
    await dialog.getByRole('button', { name: '创建' }).click();
    await toast(page, '创建成功').waitFor();
    await volumeRow('store_user-ckpt').getByText('/root/ckpt').waitFor();
    const list = await api.request<{ id: number; name: string }[]>('GET', '/api/storage/volumes');
    volumeId = list.body.find((v) => v.name === 'store_user-ckpt')?.id as number;
    expect(volumeId).toBeGreaterThan(0);
  });

  it('keeps what a container wrote to it after the container is destroyed; the next one reads it (SSH)', async () => {
    const first = await buyBaseInstance(api, 'writer', 1, {
      mounts: [{ source: String(volumeId), target: '/root/ckpt' }],
    });
    await ssh(first, 'echo "epoch-42 weights" > /root/ckpt/model.txt && sync');

    // In use: the page shows the container and refuses the delete.
    await page.reload();
    await volumeRow('store_user-ckpt').getByText('writer').waitFor();
    await volumeRow('store_user-ckpt').getByRole('button', { name: '删除' }).click();
    await toast(page, '该存储卷已被容器使用，无法删除').waitFor();

    expect((await api.request('DELETE', `/api/containers/${first}`)).status).toBe(200);
    const second = await buyBaseInstance(api, 'reader', 1, {
      mounts: [{ source: String(volumeId), target: '/mnt/restore' }],
    });
    expect(await ssh(second, 'cat /mnt/restore/model.txt')).toContain('epoch-42 weights');
    // A dataset of many (empty) files, for the delete below to work through.
    expect(
      await ssh(
        second,
        'mkdir -p /mnt/restore/many && cd /mnt/restore/many && seq 1 20000 | xargs touch && ls | wc -l',
      ),
    ).toContain('20000');
    expect((await api.request('DELETE', `/api/containers/${second}`)).status).toBe(200);

    // 刷新 measures the volume on the node now: the bytes the container wrote.
    await page.getByRole('button', { name: '刷新' }).click();
    await volumeRow('store_user-ckpt').getByText('17 B').waitFor();
  });

  it('renames it, then deletes it after the confirmation: 删除中 with a bar, then the row is gone', async () => {
    await volumeRow('store_user-ckpt').getByRole('button', { name: '重命名' }).click();
    const dialog = page.getByRole('dialog', { name: /重命名/ });
    expect(await dialog.getByLabel('新名称').inputValue()).toBe('ckpt');
    await dialog.getByLabel('新名称').fill('ckpt v2');
    await dialog.getByText('存储卷名称只能包含字母、数字、下划线和横线').waitFor();
    expect(await dialog.getByRole('button', { name: '确定' }).isDisabled()).toBe(true);
    await dialog.getByLabel('新名称').fill('ckpt_v2');
    await dialog.getByRole('button', { name: '确定' }).click();
    await toast(page, '修改成功').waitFor();
    await volumeRow('store_user-ckpt_v2').waitFor();

    await page.reload();
    await volumeRow('store_user-ckpt_v2').getByRole('button', { name: '删除' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确定要删除这个存储卷吗？相关的数据将会丢失。').waitFor();
    await confirm.getByRole('button', { name: '确定' }).click();
    await toast(page, '已开始删除，完成后存储卷将从列表中移除').waitFor();
    // The answer came at once; the node works through the 20000 files while the page follows it.
    await volumeRow('store_user-ckpt_v2')
      .getByText(/^删除中 \d+%$/)
      .waitFor();
    await volumeRow('store_user-ckpt_v2').getByRole('progressbar').waitFor();
    expect(await volumeRow('store_user-ckpt_v2').getByRole('button', { name: '删除' }).isDisabled()).toBe(
      true,
    );
    await volumeRow('store_user-ckpt_v2').waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByTestId('storage-usage').getByText('0.00 GB / 50 GB').waitFor();
    expect((await api.request<unknown[]>('GET', '/api/storage/volumes')).body).toEqual([]);
    expect((await api.request<{ volumes: unknown[] }>('GET', '/api/storage/info')).body.volumes).toEqual([]);
  });
});
