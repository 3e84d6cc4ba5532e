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

/**
 * Every page of every context of `browser` is watched from its first request on. Contexts ask for
 * reduced motion unless a test says otherwise: the console then opens dialogs without antd's zoom,
 * so a click right after a dialog opens lands where Playwright aimed (a click in the frames before
 * the zoom starts could land beside a button that was still growing, and be lost).
 */
export function watchBrowser(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => {
    const context = await newContext({ reducedMotion: 'reduce', ...options });
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
  // Dialogs and drawers render at the end of <body>, past what `shows` keeps: named on their own.
  const dialogs = await page
    .locator('[role=dialog]:visible')
    .evaluateAll((nodes) => nodes.map((n) => (n.textContent ?? '').replace(/\s+/g, ' ').slice(0, 120)))
    .catch(() => ['(unreadable)']);
  const trouble = pageTrouble.get(page) ?? [];
  return [
    `  page: ${page.url()}`,
    `  shows: ${shows}`,
    `  dialogs: ${dialogs.length > 0 ? dialogs.join(' | ') : 'none'}`,
    `  trouble: ${trouble.join(' | ') || 'none'}`,
  ].join('\n');
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
