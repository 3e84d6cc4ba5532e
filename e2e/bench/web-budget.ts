/**
 * The console's loading budget, measured in Debian's Chromium against a real control plane.
 *
 *   npx tsx e2e/bench/web-budget.ts        (after npm run build -w @gpucloud/web)
 *   WEB_DIST=/some/other/build npx tsx e2e/bench/web-budget.ts   (another build, e.g. an old one)
 *
 * Starts an embedded PostgreSQL (.data/pg-bench-web, or GPUCLOUD_TEST_PG=name:port, or
 * DATABASE_URL) and the control plane serving web/dist exactly as production does (no node), then
 * loads /, /login and /market (signed in as the admin) in fresh browser contexts, waiting until the
 * page's own content shows and the network is idle after it, without touching the page (ready
 * for input). For each page it counts what came over the
 * wire (the response bodies as Chromium received them, compressed or not) and compares:
 *
 *   - JS before interaction, brotli: the JavaScript files' brotli size (quality 11, what the
 *     build's .br files hold and an HTTPS browser receives). Goals: / ≤ 110 kB, /login ≤ 170 kB.
 *   - bytes before interaction: every file's body on the wire, against the same files gzip -9
 *     (what a server compressing them would send). Goal: ratio ≤ 1.0 (nothing sent uncompressed).
 *   - LCP with 4× CPU throttling (DevTools' Emulation.setCPUThrottlingRate): median of
 *     BENCH_RUNS loads after one warm-up. Goal < 2500 ms (Google's "good" LCP). The note gives a
 *     plain static HTML page's LCP under the same throttling (hand-written, no script).
 *
 * Chromium sends `Accept-Encoding: br` only over HTTPS; over this bench's http://127.0.0.1 it asks
 * for gzip, so the bytes on the wire are gzip ones (the note says which). A bench never fails on
 * a figure: it prints and records them (results.ts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { ensurePostgres } from '../../scripts/lib/postgres.mjs';
import {
  compressedSizes,
  HOME_JS_BUDGET_BR,
  homePageBundle,
  kB,
  LOGIN_JS_BUDGET_BR,
  loginPageBundle,
  measurePage,
  type PageMeasurement,
  type PageSession,
  signInSession,
  startConsoleServer,
  startPlainPage,
  WEB_DIST,
} from '../test/console-budget.js';
import { createDatabase } from '../test/databases.js';
import { type Measurement, median, report } from './results.js';

const DATA_DIR = fileURLToPath(new URL('../../.data', import.meta.url));
const DIST = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : WEB_DIST;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const THROTTLING = 4;
const LCP_GOAL_MS = 2500;

const PAGES: { path: string; signedIn: boolean; ready: string }[] = [
  { path: '/', signedIn: false, ready: 'main h1' },
  { path: '/login', signedIn: false, ready: '#login_username' },
  { path: '/market', signedIn: true, ready: 'main h3' },
];

interface PageResult {
  path: string;
  bytes: PageMeasurement;
  lcp: number[];
  lcpElement: string | null;
  lcpFailed: number;
}

function row(cells: string[], widths: number[]): string {
  return cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
    .join('  ');
}

async function lcpRuns(
  browser: Browser,
  url: string,
  pagePath: string,
  session: PageSession | undefined,
  ready: string,
): Promise<{ lcp: number[]; element: string | null; failed: number }> {
  const load = () => measurePage(browser, url, pagePath, { session, ready, cpuThrottling: THROTTLING });
  // One warm-up load so the numbers do not include Chromium's own first-start costs.
  await load().catch(() => {});
  const lcp: number[] = [];
  let element: string | null = null;
  let failed = 0;
  for (let i = 0; i < RUNS; i += 1) {
    try {
      const run = await load();
      if (run.lcpMs !== null) lcp.push(run.lcpMs);
      element = run.lcpElement ?? element;
    } catch (error) {
      // A load that never showed its content on the loaded machine: counted, not measured.
      failed += 1;
      console.error(`[web-budget] ${pagePath}: ${String(error).split('\n')[0]}`);
    }
  }
  return { lcp, element, failed };
}

async function main() {
  mkdirSync(DATA_DIR, { recursive: true });
  const [pgName, pgPort] = (process.env.GPUCLOUD_TEST_PG ?? '').split(':');
  const pg = await ensurePostgres({
    dataDir: DATA_DIR,
    name: pgName || 'pg-bench-web',
    port: pgPort ? Number(pgPort) : 5449,
    database: 'postgres',
    fresh: !process.env.DATABASE_URL,
    log: (line: string) => console.error(`[setup] ${line}`),
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const server = await startConsoleServer(await createDatabase(pg.url, 'webbench'), DIST);
  const plain = await startPlainPage();
  const results: PageResult[] = [];
  let plainLcp: number[] = [];
  try {
    const session = await signInSession(server);
    for (const page of PAGES) {
      const pageSession = page.signedIn ? session : undefined;
      const bytes = await measurePage(browser, server.url, page.path, {
        session: pageSession,
        ready: page.ready,
      });
      // LCP for the two pages with goals (the market's heading waits on its API answers).
      const { lcp, element, failed } =
        page.path === '/market'
          ? { lcp: [], element: null, failed: 0 }
          : await lcpRuns(browser, server.url, page.path, pageSession, page.ready);
      results.push({ path: page.path, bytes, lcp, lcpElement: element, lcpFailed: failed });
    }
    plainLcp = (await lcpRuns(browser, plain.url, '', undefined, 'h1')).lcp;
  } finally {
    await plain.close();
    await server.close();
    await browser.close();
    await pg.stop();
  }

  const widths = [16, 9, 11, 13, 12, 12, 16, 0];
  console.log(
    `\nChromium, 1440×900, the control plane serving ${DIST}; LCP: median of ${RUNS} loads at ${THROTTLING}× CPU throttling\n`,
  );
  console.log(
    row(
      [
        'page',
        'JS files',
        'JS raw',
        'JS on wire',
        'all on wire',
        'same gzip',
        `LCP ${THROTTLING}×`,
        'LCP element',
      ],
      widths,
    ),
  );
  const measurements: Measurement[] = [];
  for (const result of results) {
    const { bytes } = result;
    const gzipped = compressedSizes(bytes.files, DIST);
    const jsCompressed = compressedSizes(bytes.js, DIST);
    const encodings = [...new Set(bytes.files.map((file) => file.encoding ?? 'none'))].join('/');
    const lcp = result.lcp.length > 0 ? median(result.lcp) : Number.NaN;
    console.log(
      row(
        [
          result.path,
          String(bytes.js.length),
          kB(bytes.jsRaw),
          kB(bytes.jsSent),
          kB(bytes.sent),
          kB(gzipped.gzip),
          Number.isNaN(lcp) ? 'n/a' : `${lcp} ms`,
          result.lcpElement ?? '',
        ],
        widths,
      ),
    );
    const budget =
      result.path === '/' ? HOME_JS_BUDGET_BR : result.path === '/login' ? LOGIN_JS_BUDGET_BR : undefined;
    measurements.push({
      what: `${result.path} JS before interaction, brotli`,
      unit: 'kB',
      ours: jsCompressed.brotli / 1000,
      ...(budget ? { goal: { op: '<=' as const, value: budget / 1000 } } : {}),
      note: `${bytes.js.length} files, ${kB(bytes.jsRaw)} raw, ${kB(bytes.jsSent)} on the wire (${encodings}, Accept-Encoding: ${bytes.acceptEncoding ?? '?'})`,
    });
    measurements.push({
      what: `${result.path} bytes before interaction`,
      unit: 'kB',
      ours: bytes.sent / 1000,
      baseline: { label: 'the same files gzip -9', value: gzipped.gzip / 1000 },
      goal: { op: '<=', value: 1.0 },
      note: `${bytes.files.length} files, ${kB(bytes.files.reduce((sum, file) => sum + file.raw, 0))} raw`,
    });
    if (!Number.isNaN(lcp)) {
      measurements.push({
        what: `${result.path} LCP, ${THROTTLING}× CPU throttling`,
        unit: 'ms',
        ours: lcp,
        goal: { op: '<', value: LCP_GOAL_MS },
        note: `median of ${result.lcp.length}${result.lcpFailed ? ` (${result.lcpFailed} loads timed out)` : ''} (min ${Math.min(...result.lcp)}, max ${Math.max(...result.lcp)}); a plain static HTML page: ${plainLcp.length > 0 ? median(plainLcp) : 'n/a'} ms`,
      });
    }
  }

  const home = homePageBundle(DIST);
  const login = loginPageBundle(DIST);
  console.log(
    `\nFrom the build manifest (entry + route, with static imports): / ${kB(home.brotli)} brotli, ${kB(home.gzip)} gzip; ` +
      `/login ${kB(login.brotli)} brotli, ${kB(login.gzip)} gzip`,
  );
  console.log(`Home page JS files: ${results[0]?.bytes.js.map((file) => file.path).join(', ')}`);
  console.log(`/login JS files: ${results[1]?.bytes.js.map((file) => file.path).join(', ')}`);
  report('web-budget', measurements);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
