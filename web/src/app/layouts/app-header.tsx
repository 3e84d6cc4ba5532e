import { Link, useLocation } from 'react-router-dom';
import { DropdownMenu } from '../../components/dropdown-menu';
import { useSession } from '../../lib/auth';
import { DOCS_LINK, PRODUCT_MENUS, type ProductMenu } from '../navigation';
import { ProductDrawer } from './product-drawer';
import { UserMenu } from './user-menu';

function isActive(menu: ProductMenu, pathname: string): boolean {
  return menu.items.some((item) => {
    const path = item.to.split('?')[0] ?? item.to;
    return pathname === path || pathname.startsWith(`${path}/`);
  });
}

/**
 * The header on every page. Plain elements and CSS rather than antd, so that public pages
 * (the home page above all) stay small; it uses the same colours and sizes as the console.
 */
export function AppHeader() {
  const { token, user } = useSession();
  const { pathname } = useLocation();

  return (
    <header className="site-header">
      <div className="site-header-inner">
        <ProductDrawer />
        <Link to="/" className="site-logo" aria-label="GPU 云平台 首页">
          <span className="site-logo-mark" aria-hidden="true">
            G
          </span>
          <span>GPU 云平台</span>
        </Link>
        <nav aria-label="产品导航" className="site-nav">
          <ul>
            {PRODUCT_MENUS.map((menu) => (
              <li key={menu.key}>
                <DropdownMenu
                  label={menu.label}
                  menuLabel={menu.label}
                  active={isActive(menu, pathname)}
                  openOnHover
                  testId={`nav-${menu.key}`}
                  items={menu.items.map((item) => ({
                    key: item.to,
                    label: item.label,
                    description: item.description,
                    to: item.to,
                  }))}
                />
              </li>
            ))}
            <li>
              <Link
                to={DOCS_LINK.to}
                className="site-nav-link"
                aria-current={pathname.startsWith(DOCS_LINK.to) ? 'page' : undefined}
              >
                {DOCS_LINK.label}
              </Link>
            </li>
          </ul>
        </nav>
        <div className="site-header-actions">
          {token && user ? (
            <>
              <Link to="/user/containers" className="site-console-link">
                控制台
              </Link>
              <UserMenu user={user} />
            </>
          ) : (
            <Link to="/login" className="gc-btn gc-btn-primary" data-testid="login-button">
              登录
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
