import type { RouteHandle } from './router';

export const SITE_TITLE = 'GPU 云平台';

/** The document title for the matched routes: the deepest route that names one, or the site's own. */
export function pageTitle(handles: readonly unknown[]): string {
  const title = handles
    .map((handle) => (handle as RouteHandle | undefined)?.title)
    .filter((value): value is string => Boolean(value))
    .at(-1);
  return title ? `${title} - ${SITE_TITLE}` : `${SITE_TITLE} - 面向 AI 开发者的 GPU 算力平台`;
}
