import { ADMIN, ApiClient } from '@gpucloud/control-plane/test-harness';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { Platform } from './platform.js';

/**
 * Helpers for the console's browser tests: a user registered through the API (with the e-mail
 * code from the sandbox outbox) whose session is put into localStorage, the way the console keeps
 * it, and instances bought through the API so a test can start from a running container.
 */

export interface SignedIn {
  api: ApiClient;
  context: BrowserContext;
  page: Page;
}

export async function registerUser(platform: Platform, username: string): Promise<ApiClient> {
  const api = new ApiClient(platform.url);
  await api.register(username);
  return api;
}

export async function adminClient(platform: Platform): Promise<ApiClient> {
  const api = new ApiClient(platform.url);
  await api.login(ADMIN.username, ADMIN.password);
  return api;
}

/** A browser context whose localStorage holds the session of `api`'s user. */
export async function signedInContext(
  browser: Browser,
  platform: Platform,
  api: ApiClient,
  user: { username: string; isAdmin?: boolean },
): Promise<SignedIn> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
  const session = {
    token: api.token ?? '',
    user: JSON.stringify({ username: user.username, nickname: '', isAdmin: user.isAdmin ?? false }),
  };
  await context.addInitScript((s: { token: string; user: string }) => {
    // Only until the test signs out on purpose: the flag survives reloads.
    if (window.sessionStorage.getItem('e2e-signed-out')) return;
    window.localStorage.setItem('token', s.token);
    window.localStorage.setItem('user', s.user);
  }, session);
  const page = await context.newPage();
  return { api, context, page };
}

export interface BaseFramework {
  frameworkId: number;
  versionId: number;
}

/** The locally built Base image (busybox + sshd): the one image that runs without a registry. */
export async function baseFramework(api: ApiClient): Promise<BaseFramework> {
  const frameworks = await api.request<{ id: number; name: string }[]>('GET', '/api/frameworks');
  const base = frameworks.body.find((f) => f.name === 'Base');
  if (!base) throw new Error('no Base framework');
  const versions = await api.request<{ id: number }[]>('GET', `/api/frameworks/${base.id}/versions`);
  const version = versions.body[0];
  if (!version) throw new Error('Base has no version');
  return { frameworkId: base.id, versionId: version.id };
}

export interface ProductSummary {
  id: number;
  price: number;
  gpu_available: number;
}

export async function firstProduct(api: ApiClient): Promise<ProductSummary> {
  const products = await api.request<{ items: ProductSummary[] }>('GET', '/api/cloud-products');
  const product = products.body.items[0];
  if (!product) throw new Error('no product');
  return product;
}

/** Buys an hourly Base instance through the API (`extra` adds fields such as mounts); returns its id. */
export async function buyBaseInstance(
  api: ApiClient,
  name: string,
  gpuCount: number,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const product = await firstProduct(api);
  const base = await baseFramework(api);
  const purchase = await api.request<{ container_id: string; status: string; detail?: string }>(
    'POST',
    `/api/cloud-products/${product.id}/purchase`,
    {
      instanceName: name,
      gpuCount,
      framework: base.frameworkId,
      frameworkVersion: base.versionId,
      agreeTerms: true,
      billing_type: 'hourly',
      duration: 1,
      total_price: Math.round(product.price * 100 * gpuCount) / 100,
      ...extra,
    },
  );
  if (purchase.status !== 201) {
    throw new Error(`purchase failed: ${purchase.status} ${JSON.stringify(purchase.body)}`);
  }
  // The client waited until the node provisioned it (test-harness): it must be running now.
  const id = purchase.body.container_id;
  const view = await api.request<{ status: string; start_error: string | null }>(
    'GET',
    `/api/containers/${id}`,
  );
  if (view.body.status !== 'running') {
    throw new Error(`container ${id} is ${view.body.status}: ${view.body.start_error ?? ''}`);
  }
  return id;
}

/** The market with the purchase dialog (创建实例) of its first server open. */
export async function openPurchaseDialog(page: Page, platform: Platform): Promise<Locator> {
  await page.goto(`${platform.url}/market`);
  const buy = page.locator('[data-testid^="buy-"]').first();
  await buy.waitFor();
  await buy.click();
  const dialog = page.getByRole('dialog', { name: '创建实例' });
  await dialog.waitFor();
  return dialog;
}

/**
 * Waits until no message toast is shown. Toasts sit at the top, over the upper options of a
 * dialog's dropdowns, and antd keeps a toast open while the pointer rests on it; a click aimed at
 * an option under one would wait on it forever. The pointer is moved off first.
 */
export async function waitForToastsToLeave(page: Page) {
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => !document.querySelector('.ant-message-notice'), undefined, {
    timeout: 15_000,
  });
}

/** Picks `option` in the antd Select labelled `label` (inside `scope`). */
export async function pickOption(page: Page, scope: Page | Locator, label: string, option: string) {
  await waitForToastsToLeave(page);
  // The selected value's label lies over the search input, so the click goes through it.
  await scope.getByLabel(label, { exact: true }).first().click({ force: true });
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
    .first()
    .click();
}

/** The message toast with exactly this text. */
export function toast(page: Page, text: string): Locator {
  return page.locator('.ant-message-notice-content', { hasText: text });
}

/** Confirms the visible antd popconfirm. */
export async function confirmPopover(page: Page) {
  await page.locator('.ant-popover:visible').getByRole('button', { name: '确定' }).click();
}
