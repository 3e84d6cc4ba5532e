/**
 * The console's loading budget, measured in Debian's Chromium.
 *
 *   npx tsx e2e/bench/web-budget.ts        (after npm run build -w @gpucloud/web)
 *
 * Serves web/dist from a static server (gzip, as production does), loads /, /market and
 * /user/containers (the last two signed in, with canned API answers) and prints for each the
 * JavaScript transferred before the page is ready for input, raw and gzip, and the Largest
 * Contentful Paint. Ends with the home page's 170 kB budget and whether it is met.
 */
import { chromium } from 'playwright-core';
import {
  DEMO_API,
  DEMO_SESSION,
  HOME_JS_BUDGET_GZIP,
  homePageBundle,
  kB,
  measurePage,
  type PageMeasurement,
  startStaticConsole,
} from '../test/console-budget.js';

const PAGES: { path: string; signedIn: boolean }[] = [
  { path: '/', signedIn: false },
  { path: '/market', signedIn: true },
  { path: '/user/containers', signedIn: true },
];

const RUNS = 5;

function row(cells: string[], widths: number[]): string {
  return cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
    .join('  ');
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const site = await startStaticConsole({ api: DEMO_API });
  const results: PageMeasurement[] = [];
  try {
    for (const page of PAGES) {
      const options = page.signedIn ? { session: DEMO_SESSION } : {};
      // One warm-up load so the numbers do not include Chromium's own first-start costs, then
      // the median of RUNS loads (LCP varies with the machine's load; bytes do not).
      await measurePage(browser, site, page.path, options);
      const runs: PageMeasurement[] = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await measurePage(browser, site, page.path, options));
      runs.sort((a, b) => (a.lcpMs ?? Number.POSITIVE_INFINITY) - (b.lcpMs ?? Number.POSITIVE_INFINITY));
      const median = runs[Math.floor(RUNS / 2)];
      if (median) results.push(median);
    }
  } finally {
    await site.close();
    await browser.close();
  }

  const widths = [18, 9, 12, 13, 10, 0];
  console.log(
    `Chromium, 1440×900, static server for web/dist with gzip; median LCP of ${RUNS} loads (${new Date().toISOString()})\n`,
  );
  console.log(row(['page', 'JS files', 'JS raw', 'JS gzip', 'LCP', 'LCP element'], widths));
  for (const result of results) {
    console.log(
      row(
        [
          result.path,
          String(result.js.length),
          kB(result.jsRaw),
          kB(result.jsTransferred),
          result.lcpMs === null ? 'n/a' : `${result.lcpMs} ms`,
          result.lcpElement ?? '',
        ],
        widths,
      ),
    );
  }

  const home = results[0];
  const built = homePageBundle();
  console.log(`\nHome page JS files: ${home?.js.map((file) => file.path).join(', ')}`);
  console.log(
    `From the build manifest (index.html entry for /, with its static imports): ${kB(built.raw)} raw, ${kB(built.gzip)} gzip`,
  );
  const measured = home?.jsTransferred ?? Number.POSITIVE_INFINITY;
  const ok = measured <= HOME_JS_BUDGET_GZIP && built.gzip <= HOME_JS_BUDGET_GZIP;
  console.log(
    `Budget: the home page loads at most ${kB(HOME_JS_BUDGET_GZIP)} of JavaScript (gzip) before interaction — ` +
      `/ transferred ${kB(measured)}: ${ok ? 'within budget' : 'OVER BUDGET'}`,
  );
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
