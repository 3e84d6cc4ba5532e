import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router-dom';
import { pageTitle } from '../page-title';
import { AppHeader } from './app-header';
import { SiteFooter } from './site-footer';
import './site-layout.css';

/** The document title follows the deepest route that names one. */
function useRouteTitle() {
  const title = pageTitle(useMatches().map((match) => match.handle));
  useEffect(() => {
    document.title = title;
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
