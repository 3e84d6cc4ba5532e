import { existsSync } from 'node:fs';
import path from 'node:path';
import { type RunningControlPlane, startControlPlane } from '@gpucloud/control-plane/platform';
import { ADMIN, ApiClient } from '@gpucloud/control-plane/test-harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { controlPlaneConfig } from './control-plane-config.js';
import { createDatabase } from './databases.js';
import { launchBrowser, WEB_DIST } from './platform.js';

// The built console under its Content-Security-Policy in a real browser: no page of the console
// may trip the policy (an inline script, an inline style antd or echarts write, a data: image).
// Only the control plane is needed (no node): the pages load with what they have.

let browser: Browser;
let cp: RunningControlPlane;
let token = '';

beforeAll(async () => {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error(`the console is not built (${WEB_DIST}); run npm run build -w @gpucloud/web`);
  }
  const config = controlPlaneConfig({
    databaseUrl: await createDatabase(inject('databaseUrl'), 'e2e'),
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    webDist: WEB_DIST,
  });
  cp = await startControlPlane(config, () => {});
  const api = new ApiClient(cp.url);
  await api.login(ADMIN.username, ADMIN.password);
  token = api.token ?? '';
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await cp?.close();
});

const PUBLIC_PAGES = ['/', '/login', '/register', '/apps', '/about', '/contact'];
const CONSOLE_PAGES = [
  '/market',
  '/user/containers',
  '/user/balance',
  '/user/billing-records',
  '/user/profile',
  '/user/storage',
  '/user/orders',
  '/user/mcp',
];

describe('security headers in the browser', () => {
  it('the console answers with the headers, and no main page reports a CSP violation', async () => {
    const res = await fetch(`${cp.url}/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(
      (s: { token: string; user: string }) => {
        const w = window as unknown as { __csp: string[] };
        w.__csp = [];
        document.addEventListener('securitypolicyviolation', (e) => {
          w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
        });
        window.localStorage.setItem('token', s.token);
        window.localStorage.setItem('user', s.user);
      },
      { token, user: JSON.stringify({ username: ADMIN.username, nickname: '', isAdmin: true }) },
    );
    const page = await context.newPage();
    const reported: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) reported.push(`${page.url()}: ${m.text()}`);
    });
    for (const p of [...PUBLIC_PAGES, ...CONSOLE_PAGES]) {
      await page.goto(`${cp.url}${p}`, { waitUntil: 'networkidle' });
      // Let lazy routes, charts and antd's styles settle.
      await page.waitForTimeout(500);
      const violations = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
      for (const v of violations) reported.push(`${p}: ${v}`);
    }
    const onMainPages = [...reported];
    // The watch itself works: an inline script is refused and reported.
    const refused = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.appendChild(script);
      return new Promise<string[]>((resolve) =>
        setTimeout(() => resolve((window as unknown as { __csp: string[] }).__csp), 200),
      );
    });
    expect(refused.some((v) => v.startsWith('script-src'))).toBe(true);
    expect(
      await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan),
    ).toBeUndefined();
    await context.close();
    expect(onMainPages).toEqual([]);
  });
});
