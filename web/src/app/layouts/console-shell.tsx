import { Outlet } from 'react-router-dom';
import { AntdProviders } from '../antd-providers';
import { SiteFooter } from './site-footer';

/**
 * Every screen built with antd (markets, user centre, admin) sits under this lazily loaded
 * shell, so antd is downloaded the first time such a screen opens and never for the public pages
 * or the sign-in screen (layouts/auth-layout.tsx).
 */
export function Component() {
  return (
    <AntdProviders>
      <main id="main" className="console-main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter compact />
    </AntdProviders>
  );
}
