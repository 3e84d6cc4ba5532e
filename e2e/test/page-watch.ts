import type { Browser, Page } from 'playwright-core';

/**
 * What went wrong in the browser during a test, so a failure on CI can be understood from its log
 * alone: every page of a browser from `launchBrowser` records its API answers ≥ 400, failed
 * requests and script errors; when a test fails, `describeOpenPages` tells where each page still
 * open was, what it showed and that record (the e2e setup file appends it to the failure).
 */

const pageTrouble = new WeakMap<Page, string[]>();
const openPages = new Set<Page>();

export function watchPage(page: Page): void {
  if (pageTrouble.has(page)) return;
  const trouble: string[] = [];
  pageTrouble.set(page, trouble);
  openPages.add(page);
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

export async function describePage(page: Page): Promise<string> {
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

export async function describeOpenPages(): Promise<string> {
  const pages = [...openPages].filter((page) => !page.isClosed());
  return (await Promise.all(pages.map(describePage))).join('\n');
}

/** Awaits a step of a browser test; when it fails, the error also says what the page showed. */
export async function explain<T>(page: Page, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${await describePage(page)}`);
  }
}
