import type { Browser, Page } from 'playwright-core';

/**
 * What went wrong in the browser during a test, so a failure on CI can be understood from its log
 * alone: every page of a browser from `launchBrowser` records its API answers ≥ 400, failed
 * requests and script errors; when a test fails, `describeTestPages` tells where each page that
 * test opened was, what it showed and that record (the e2e setup file appends it to the failure).
 */

const pageTrouble = new WeakMap<Page, string[]>();
const openPages = new Map<Page, number>();
let currentTest = 0;

/** Called before each test: pages opened from now on belong to it. */
export function startTest(): void {
  currentTest++;
}

export function watchPage(page: Page): void {
  if (pageTrouble.has(page)) return;
  const trouble: string[] = [];
  pageTrouble.set(page, trouble);
  openPages.set(page, currentTest);
  page.on('close', () => openPages.delete(page));
  const note = (line: string) => {
    trouble.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (trouble.length > 20) trouble.shift();
  };
  page.on('response', (r) => {
    if (r.status() >= 400) note(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  page.on('requestfailed', (r) => note(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText ?? ''}`));
  page.on('pageerror', (e) => note(`script error: ${e.message}`));
}

/** Every page of every context of `browser` is watched from its first request on. */
export function watchBrowser(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.on('page', watchPage);
    return context;
  };
  return browser;
}

async function describePage(page: Page): Promise<string> {
  const shows = (
    await page
      .locator('body')
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's locator.innerText (the visible text), not the DOM property
      .innerText({ timeout: 2000 })
      .catch(() => '(unreadable)')
  )
    .replace(/\s+/g, ' ')
    .slice(0, 500);
  const trouble = pageTrouble.get(page) ?? [];
  return `  page: ${page.url()}\n  shows: ${shows}\n  trouble: ${trouble.join(' | ') || 'none'}`;
}

/**
 * The pages the current test opened and has not closed (a test that failed never got to), or,
 * when it opened none, the pages still open that its file shares between tests.
 */
export async function describeTestPages(): Promise<string> {
  const open = [...openPages].filter(([page]) => !page.isClosed());
  const own = open.filter(([, test]) => test === currentTest);
  const pages = (own.length > 0 ? own : open).map(([page]) => page);
  return (await Promise.all(pages.map(describePage))).join('\n');
}
