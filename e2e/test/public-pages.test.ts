import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, launchBrowser, type Platform, startPlatform } from './platform.js';

const SCREENSHOTS = fileURLToPath(new URL('../screenshots', import.meta.url));

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

/** Each public page and text that must be on screen. */
const PAGES: { path: string; name: string; heading: string | RegExp; level?: number; text: string[] }[] = [
  {
    path: '/',
    name: 'home',
    heading: /面向 AI 开发者的\s*GPU 云平台/,
    text: ['应用生态', '50+', '7×24', '新用户注册即送'],
  },
  { path: '/gpu-servers', name: 'gpu-servers', heading: '裸金属 GPU 服务器', text: ['可选配置', '开发中'] },
  { path: '/private-cloud', name: 'private-cloud', heading: 'GPU 私有云解决方案', text: ['平台架构'] },
  { path: '/about', name: 'about', heading: '关于 GPU 云平台', text: ['我们做什么', '99.9%'] },
  {
    path: '/contact',
    name: 'contact',
    heading: '我们随时为您提供帮助',
    text: ['客服热线', '每天 9:00-21:00'],
  },
  { path: '/jobs', name: 'jobs', heading: '一起建设 AI 时代的算力基础设施', text: ['开放职位'] },
  { path: '/sitemap', name: 'sitemap', heading: '网站地图', text: ['控制台', '法律条款'] },
  { path: '/cooperation', name: 'cooperation', heading: '携手共建 GPU 算力生态', text: ['合作模式'] },
  {
    path: '/agreement',
    name: 'agreement',
    heading: 'GPU 云平台服务协议',
    text: ['计费与支付', '使用规范与禁止行为'],
  },
  { path: '/privacy', name: 'privacy', heading: 'GPU 云平台隐私政策', text: ['您的权利', '个人信息保护法'] },
  { path: '/docs', name: 'docs', heading: '文档中心', text: ['连接实例'] },
  { path: '/login', name: 'login', heading: '登录 GPU 云平台', level: 3, text: ['没有账号？立即注册'] },
  { path: '/no-such-page', name: 'not-found', heading: '页面不存在', text: ['返回首页'] },
];

let platform: Platform;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  platform = await startPlatform();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

async function openPage(width: (typeof WIDTHS)[number]) {
  const context = await browser.newContext({ viewport: { width: width.width, height: width.height } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('public pages at phone and desktop widths', () => {
  for (const width of WIDTHS) {
    for (const target of PAGES) {
      it(`${target.path} at ${width.width}×${width.height}`, async () => {
        const { context, page, errors } = await openPage(width);
        try {
          await page.goto(`${platform.url}${target.path}`);
          await page
            .getByRole('heading', { level: target.level ?? 1, name: target.heading })
            .waitFor({ state: 'visible' });
          for (const text of target.text) {
            await expect(page.getByText(text, { exact: false }).first().isVisible()).resolves.toBe(true);
          }
          await expect(page.getByRole('banner').isVisible()).resolves.toBe(true);
          await expect(page.getByRole('contentinfo').isVisible()).resolves.toBe(true);
          if (width.name === 'phone') expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
          await page.screenshot({
            path: path.join(SCREENSHOTS, `${target.name}-${width.width}.png`),
            fullPage: true,
            animations: 'disabled',
          });
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }

  it('the product side menu works from the keyboard on a phone', async () => {
    const { context, page, errors } = await openPage(WIDTHS[0]);
    try {
      await page.goto(`${platform.url}/about`);
      await page.getByRole('button', { name: '全部产品' }).focus();
      await page.keyboard.press('Enter');
      const drawer = page.getByRole('dialog', { name: '全部产品' });
      await drawer.waitFor();
      await expect(drawer.getByText('开发中').first().isVisible()).resolves.toBe(true);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: path.join(SCREENSHOTS, 'product-drawer-390.png'),
        animations: 'disabled',
      });
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
      await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe(
        '全部产品',
      );

      // Signed out, the light-instance card asks for a login and comes back to the market.
      await page.keyboard.press('Enter');
      await page.getByTestId('product-card-market').click();
      await page.waitForURL(/\/login\?redirect=%2Fmarket$/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a header product menu opens from the keyboard on a desktop', async () => {
    const { context, page, errors } = await openPage(WIDTHS[1]);
    try {
      await page.goto(`${platform.url}/`);
      await page.getByTestId('nav-instances').focus();
      await page.keyboard.press('ArrowDown');
      const menu = page.getByRole('menu', { name: '轻量实例' });
      await menu.waitFor();
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toContain('实例市场');
      await page.screenshot({
        path: path.join(SCREENSHOTS, 'product-menu-1440.png'),
        animations: 'disabled',
      });
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the console shell shares the header and looks of the public pages', async () => {
    const response = await fetch(`${platform.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const answer = (await response.json()) as { token: string; username: string; nickname: string | null };
    for (const width of WIDTHS) {
      const { context, page, errors } = await openPage(width);
      try {
        await context.addInitScript((session) => {
          window.localStorage.setItem('token', session.token);
          window.localStorage.setItem(
            'user',
            JSON.stringify({ username: session.username, nickname: session.nickname ?? '', isAdmin: true }),
          );
        }, answer);
        await page.goto(`${platform.url}/user/containers`);
        await page.getByRole('navigation', { name: '用户中心' }).waitFor();
        await page.getByRole('heading', { name: '我的容器' }).waitFor();
        if (width.name === 'phone') expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await expect(page.getByRole('banner').isVisible()).resolves.toBe(true);
        await page.screenshot({
          path: path.join(SCREENSHOTS, `console-containers-${width.width}.png`),
          animations: 'disabled',
        });
        await page.getByTestId('user-menu').click();
        await page.getByRole('menu', { name: '用户菜单' }).waitFor();
        await page.screenshot({
          path: path.join(SCREENSHOTS, `console-user-menu-${width.width}.png`),
          animations: 'disabled',
        });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
