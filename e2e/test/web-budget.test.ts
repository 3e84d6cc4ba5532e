import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  builtFiles,
  type ConsoleServer,
  HOME_JS_BUDGET_BR,
  homePageBundle,
  kB,
  LOGIN_JS_BUDGET_BR,
  loginPageBundle,
  measurePage,
  PRECOMPRESS_MIN_BYTES,
  PRECOMPRESSED,
  startConsoleServer,
  WEB_DIST,
} from './console-budget.js';
import { createDatabase } from './databases.js';
import { launchBrowser } from './platform.js';

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

describe('the console build compresses its files ahead of time', () => {
  it('writes .br and .gz beside each text file of 1 kB or more, holding the same bytes', () => {
    const files = builtFiles().filter(
      (file) => PRECOMPRESSED.test(file) && statSync(path.join(WEB_DIST, file)).size >= PRECOMPRESS_MIN_BYTES,
    );
    expect(files.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const file of files) {
      const content = readFileSync(path.join(WEB_DIST, file));
      for (const [suffix, decode] of [
        ['.br', brotliDecompressSync],
        ['.gz', gunzipSync],
      ] as const) {
        const copy = path.join(WEB_DIST, `${file}${suffix}`);
        if (!existsSync(copy)) {
          missing.push(`${file}${suffix}`);
          continue;
        }
        const compressed = readFileSync(copy);
        expect(compressed.length, `${file}${suffix}`).toBeLessThan(content.length);
        expect(decode(compressed).equals(content), `${file}${suffix} decodes to the file`).toBe(true);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the home page and the sign-in page stay within their JavaScript budgets', () => {
  it('the built entry and the route with their static imports: / at most 110 kB brotli, /login 170 kB', () => {
    for (const [name, bundle, budget] of [
      ['/', homePageBundle(), HOME_JS_BUDGET_BR],
      ['/login', loginPageBundle(), LOGIN_JS_BUDGET_BR],
    ] as const) {
      const detail = bundle.files.map((file) => `${file.file} ${kB(file.brotli)}`).join(', ');
      expect(bundle.brotli, `${name} JS ${kB(bundle.brotli)} brotli: ${detail}`).toBeLessThanOrEqual(budget);
    }
  });

  it('in Chromium, the control plane sends / and /login only the JS the build says, compressed, and no antd', async () => {
    for (const [pagePath, bundle, ready] of [
      ['/', homePageBundle(), 'main h1'],
      ['/login', loginPageBundle(), '#login_username'],
    ] as const) {
      const measured = await measurePage(browser, server.url, pagePath, { ready });
      // The browser loads exactly what the build says the page needs: nothing lazy sneaks in
      // (the console shell, which brings antd, above all).
      expect(measured.js.map((file) => file.path.replace(/^\//, '')).sort(), pagePath).toEqual(
        bundle.files.map((file) => file.file).sort(),
      );
      expect(measured.js.some((file) => /console-shell|register-panel/.test(file.path))).toBe(false);
      const files = measured.js.map((file) => `${file.path} ${file.encoding ?? 'none'} ${kB(file.sent)}`);
      for (const file of measured.js.filter((js) => js.raw >= PRECOMPRESS_MIN_BYTES)) {
        expect(['br', 'gzip'], `${file.path} sent compressed: ${files.join(', ')}`).toContain(file.encoding);
      }
      // What came over the wire is at most the files gzip -9: the server sends the build's copies.
      expect(measured.jsSent, files.join(', ')).toBeLessThanOrEqual(bundle.gzip);
    }
  });
});
