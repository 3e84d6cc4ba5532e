import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPurchaseDialog, pickOption, registerUser, signedInContext } from './console-helpers.js';
import { launchBrowser, type Platform, startPlatform } from './platform.js';

/** expect.poll gives up after 1 s by default; a loaded test machine needs longer. */
const WAIT = { timeout: 15_000 };

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

/** The inline message under a form field or input of the dialog. */
const shows = (dialog: Locator, text: string) => dialog.getByText(text, { exact: true }).first().waitFor();

const openDialog = (page: Page): Promise<Locator> => openPurchaseDialog(page, platform);

async function addPort(dialog: Locator, value: string) {
  await dialog.getByLabel('自定义端口').fill(value);
  await dialog.getByRole('button', { name: '添加', exact: true }).click();
}

describe('the purchase dialog in the browser', () => {
  it('enforces the form rules and shows the price with the discount as 折', async () => {
    const api = await registerUser(platform, 'buyer_rules');
    const { page, context } = await signedInContext(browser, platform, api, { username: 'buyer_rules' });
    const volume = await api.request('POST', '/api/storage/volumes', {
      name: 'datasets',
      path: '/root/datasets',
    });
    expect(volume.status).toBe(201);
    const dialog = await openDialog(page);

    // Memory and disk are fixed texts; the confirm button waits for the terms.
    await dialog.getByText('32GB', { exact: true }).waitFor();
    await dialog.getByText('200GB NVMe', { exact: true }).waitFor();
    const confirm = dialog.getByRole('button', { name: '确认创建' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByText('我已阅读并同意服务条款').click();
    await expect.poll(() => confirm.isDisabled(), WAIT).toBe(false);

    // Framework and version are required.
    await confirm.click();
    await shows(dialog, '请选择框架');
    await shows(dialog, '请选择版本');

    // The price: unit × GPUs × hours; 包日 is 24 hours a day at 9.5折.
    const total = dialog.getByTestId('purchase-total');
    await expect.poll(() => total.textContent(), WAIT).toBe('¥1.99');
    await dialog.getByLabel('GPU 数量').fill('2');
    await dialog.getByLabel('使用时长').fill('3');
    await expect.poll(() => total.textContent(), WAIT).toBe('¥11.94');
    await expect
      .poll(() => dialog.getByTestId('purchase-formula').textContent(), WAIT)
      .toBe('¥1.99/卡/时 × 2卡 × 3小时 = ¥11.94');
    await dialog.getByLabel('使用时长').fill('721');
    await shows(dialog, '按小时计费最长720小时');
    await pickOption(page, dialog, '计费方式', '包日（9.5折）');
    await shows(dialog, '包日最长30天');
    await dialog.getByLabel('使用时长').fill('1');
    await dialog.getByLabel('GPU 数量').fill('1');
    await expect.poll(() => dialog.getByTestId('purchase-discount').textContent(), WAIT).toBe('9.5折');
    await expect.poll(() => total.textContent(), WAIT).toBe('¥45.37');
    await expect
      .poll(() => dialog.getByTestId('purchase-formula').textContent(), WAIT)
      .toBe('¥1.99/卡/时 × 1卡 × 1天 × 24小时/天 × 9.5折 = ¥45.37');

    // Custom ports: the range 10000-65535, ranges start-end, duplicates, at most five.
    await addPort(dialog, '80');
    await shows(dialog, '端口号必须在10000-65535之间');
    await addPort(dialog, '12010-12000');
    await shows(dialog, '端口范围格式不正确，请输入10000-65535之间的端口');
    await addPort(dialog, '12000');
    await dialog.locator('.ant-tag', { hasText: '12000' }).waitFor();
    await addPort(dialog, '12000');
    await shows(dialog, '该端口已添加');
    await addPort(dialog, '12000-12002');
    await page.getByText('已添加2个端口，跳过0个已占用端口、1个重复端口').waitFor();
    await addPort(dialog, '12001-12002');
    await shows(dialog, '所有端口都已被占用或重复');
    await addPort(dialog, '12003-12004');
    await dialog.locator('.ant-tag', { hasText: '12004' }).waitFor();
    await addPort(dialog, '12005');
    await shows(dialog, '最多只能添加5个自定义端口');

    // Mounts: complete pairs whose target is an absolute path of safe characters.
    await dialog.getByRole('button', { name: '添加挂载点' }).click();
    await pickOption(page, dialog, '挂载点1存储卷', 'buyer_rules-datasets');
    // The target starts as the volume's own path.
    expect(await dialog.getByLabel('挂载点1挂载路径').inputValue()).toBe('/root/datasets');
    await dialog.getByLabel('挂载点1挂载路径').fill('');
    await confirm.click();
    await shows(dialog, '请完善所有挂载点配置');
    await dialog.getByLabel('挂载点1挂载路径').fill('data set');
    await shows(dialog, '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线');
    await dialog.getByLabel('挂载点1挂载路径').fill('/root/datasets');
    await expect
      .poll(
        () =>
          dialog.getByText('挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线').count(),
        WAIT,
      )
      .toBe(0);

    // Unticking the terms disables the confirm button again.
    await dialog.getByText('我已阅读并同意服务条款').click();
    expect(await confirm.isDisabled()).toBe(true);
    await context.close();
  });
});
