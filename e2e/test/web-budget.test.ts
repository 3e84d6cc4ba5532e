import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HOME_JS_BUDGET_GZIP,
  homePageBundle,
  kB,
  measurePage,
  type StaticConsole,
  startStaticConsole,
} from './console-budget.js';
import { launchBrowser } from './platform.js';

let browser: Browser;
let site: StaticConsole;

beforeAll(async () => {
  browser = await launchBrowser();
  site = await startStaticConsole();
});
afterAll(async () => {
  await site?.close();
  await browser?.close();
});

describe('the home page stays within its JavaScript budget', () => {
  it('the built entry, the home route and their static imports are at most 170 kB gzip', () => {
    const bundle = homePageBundle();
    const detail = bundle.files.map((file) => `${file.file} ${kB(file.gzip)}`).join(', ');
    expect(bundle.gzip, `home page JS ${kB(bundle.gzip)} gzip: ${detail}`).toBeLessThanOrEqual(
      HOME_JS_BUDGET_GZIP,
    );
  });

  it('in Chromium, / transfers at most 170 kB of JavaScript before it is ready, and no antd', async () => {
    const home = await measurePage(browser, site, '/');
    const files = home.js.map((file) => `${file.path} ${kB(file.sent)}`).join(', ');
    expect(home.jsTransferred, `transferred: ${files}`).toBeLessThanOrEqual(HOME_JS_BUDGET_GZIP);
    // The browser loads exactly what the build says the home page needs: nothing lazy sneaks in.
    expect(home.js.map((file) => file.path.replace(/^\//, '')).sort()).toEqual(
      homePageBundle()
        .files.map((file) => file.file)
        .sort(),
    );
    expect(home.js.some((file) => /console-shell/.test(file.path))).toBe(false);
  });
});
