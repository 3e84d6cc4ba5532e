import { Flex, Layout, theme } from 'antd';
import { Link, useLocation } from 'react-router-dom';
import { LinkButton } from '../../components/link-button';
import { useSession } from '../../lib/auth';
import { UserMenu } from './user-menu';

interface NavItem {
  to: string;
  label: string;
}

/** The four product menus of the spec plus the documentation link. */
export const PRODUCT_NAV: NavItem[] = [
  { to: '/apps', label: '应用市场' },
  { to: '/market', label: '轻量实例' },
  { to: '/gpu-servers', label: '裸金属GPU' },
  { to: '/private-cloud', label: '私有云' },
  { to: '/docs', label: '文档' },
];

export function AppHeader() {
  const { token, user } = useSession();
  const { pathname } = useLocation();
  const { token: design } = theme.useToken();

  return (
    <Layout.Header
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 32,
        background: design.colorBgContainer,
        borderBottom: `1px solid ${design.colorBorderSecondary}`,
        padding: '0 24px',
        position: 'sticky',
        top: 0,
        zIndex: 10,
      }}
    >
      <Link
        to="/"
        style={{ fontSize: 18, fontWeight: 600, color: design.colorPrimary, whiteSpace: 'nowrap' }}
      >
        GPU 云平台
      </Link>
      <nav aria-label="产品导航" style={{ flex: 1, overflowX: 'auto' }}>
        <Flex gap={4}>
          {PRODUCT_NAV.map((item) => {
            const active = pathname === item.to || pathname.startsWith(`${item.to}/`);
            return (
              <Link
                key={item.to}
                to={item.to}
                aria-current={active ? 'page' : undefined}
                style={{
                  padding: '0 12px',
                  whiteSpace: 'nowrap',
                  color: active ? design.colorPrimary : design.colorText,
                  fontWeight: active ? 600 : 400,
                }}
              >
                {item.label}
              </Link>
            );
          })}
        </Flex>
      </nav>
      {token && user ? (
        <UserMenu user={user} />
      ) : (
        <LinkButton to="/login" type="primary">
          登录
        </LinkButton>
      )}
    </Layout.Header>
  );
}
