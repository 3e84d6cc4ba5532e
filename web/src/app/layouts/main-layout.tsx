import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router-dom';
import type { RouteHandle } from '../router';
import { AppHeader } from './app-header';
import { SiteFooter } from './site-footer';
import './site-layout.css';

const SITE_TITLE = 'GPU 云平台';

/** The document title follows the deepest route that names one. */
function useRouteTitle() {
  const matches = useMatches();
  const title = matches
    .map((match) => (match.handle as RouteHandle | undefined)?.title)
    .filter((value): value is string => Boolean(value))
    .at(-1);
  useEffect(() => {
    document.title = title ? `${title} - ${SITE_TITLE}` : `${SITE_TITLE} - 面向 AI 开发者的 GPU 算力平台`;
  }, [title]);
}

/** The spec's base layout: the navigation bar on every page; children bring their main and footer. */
export function MainLayout() {
  useRouteTitle();
  return (
    <div className="site">
      <a href="#main" className="skip-link">
        跳到主要内容
      </a>
      <AppHeader />
      <Outlet />
    </div>
  );
}

/** Public pages: light content (no antd) and the full footer. */
export function PublicLayout() {
  return (
    <>
      <main id="main" className="site-main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}

/** While the first page's code loads: the header at once, a spinner for the page. */
export function ShellLoading() {
  return (
    <div className="site">
      <AppHeader />
      <RouteLoading />
    </div>
  );
}

export function RouteLoading() {
  return (
    <div className="route-loading" role="status" aria-label="加载中">
      <span />
    </div>
  );
}
