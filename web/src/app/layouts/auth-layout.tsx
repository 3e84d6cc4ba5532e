import { Outlet } from 'react-router-dom';
import { SiteFooter } from './site-footer';

/**
 * The sign-in and register screens: the console shell's frame (main, compact footer) without
 * antd, so /login loads little JavaScript before it can be used. The register form, built with
 * antd, brings its providers when it opens (features/auth/components/register-panel.tsx).
 */
export function AuthLayout() {
  return (
    <>
      <main id="main" className="console-main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter compact />
    </>
  );
}
