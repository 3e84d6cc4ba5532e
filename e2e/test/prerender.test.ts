import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ConsoleServer, type PageSession, signInSession, startConsoleServer } from './console-budget.js';
import { createDatabase } from './databases.js';
import { launchBrowser } from './platform.js';

/**
 * The home page and the sign-in page are prerendered at build time (web/build/prerender.ts): the
 * server's HTML already shows them, and the console hydrates that markup rather than drawing it
 * again. Checked against the control plane serving the real build, in Chromium.
 */

let browser: Browser;
let server: ConsoleServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startConsoleServer(await createDatabase(inject('databaseUrl'), 'e2e'));
});
afterAll(async () => {
  await server?.close();
  await browser?.close();
});

async function html(pathname: string): Promise<string> {
  const res = await fetch(`${server.url}${pathname}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/html');
  return res.text();
}

/**
 * Script errors and console errors of a page (React reports a hydration mismatch through both).
 * A resource the network failed to load is not the page's error: Chromium aborts requests with
 * ERR_NETWORK_CHANGED whenever Docker adds or removes an interface (other suites' containers).
 */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error' || message.text().startsWith('Failed to load resource: net::')) return;
    errors.push(`console: ${message.text()}`);
  });
  return errors;
}

async function signedInContext(session: PageSession): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addInitScript((stored) => {
    window.localStorage.setItem('token', stored.token);
    window.localStorage.setItem('user', JSON.stringify(stored.user));
  }, session);
  return context;
}

describe('prerendered pages', () => {
  it('the server sends / and /login already drawn, with their titles; other routes get the empty shell', async () => {
    const home = await html('/');
    expect(home).toContain('<div id="root" data-prerendered="/">');
    expect(home).toContain('id="home-hero-title"');
    expect(home).toContain('<title>GPU 云平台 - 面向 AI 开发者的 GPU 算力平台</title>');

    const login = await html('/login');
    expect(login).toContain('<div id="root" data-prerendered="/login">');
    expect(login).toContain('登录 GPU 云平台');
    expect(login).toContain('id="login_username"');
    expect(login).toContain('<title>登录 - GPU 云平台</title>');
    // The sign-in route's stylesheet is linked, so its first paint is styled.
    expect(login).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/auth-screen-[\w-]+\.css">/);

    for (const pathname of ['/market', '/user/containers', '/index.html']) {
      const shell = await html(pathname);
      expect(shell, pathname).toContain('<div id="root"></div>');
      expect(shell, pathname).not.toContain('data-prerendered');
    }
  });

  it('they show without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/login`);
      await expect.poll(() => page.locator('#login_username').isVisible()).toBe(true);
      expect(await page.locator('h3.auth-title').textContent()).toBe('登录 GPU 云平台');
      await page.goto(`${server.url}/`);
      expect(await page.locator('main h1').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('the console hydrates /login without a mismatch and the form works, also with what was typed before', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const errors = errorsOf(page);
      // Hold the sign-in route's script back: the user types into the prerendered form meanwhile.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(/\/assets\/login-[\w-]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${server.url}/login`);
      await page.locator('#login_username').fill(server.admin.username);
      await page.locator('#login_password').fill(server.admin.password);
      release();
      // Hydrated: the route's title effect has run.
      await expect.poll(() => page.evaluate(() => document.title)).toBe('登录 - GPU 云平台');
      await page.locator('form#login button[type=submit]').click();
      await page.waitForURL((url) => url.pathname !== '/login');
      expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeTruthy();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a signed-in visitor gets / hydrated with the session (控制台) and no mismatch', async () => {
    const context = await signedInContext(await signInSession(server));
    try {
      const page = await context.newPage();
      const errors = errorsOf(page);
      await page.goto(`${server.url}/`);
      await expect.poll(() => page.getByRole('link', { name: '控制台' }).isVisible()).toBe(true);
      expect(await page.getByTestId('login-button').count()).toBe(0);
      // The page stays the hydrated one: the hero is the server's element, not a second copy.
      expect(await page.locator('#home-hero-title').count()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('/login with a query string is drawn by the browser (the prerender had none): ?error= shows its message', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const errors = errorsOf(page);
      await page.goto(`${server.url}/login?error=wechat_failed`);
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('微信登录失败');
      expect(await page.locator('#login_username').count()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
