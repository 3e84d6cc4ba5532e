import { Layout, Menu, theme } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';

export interface SideMenuItem {
  path: string;
  label: string;
}

/** A page shell with a side menu; the selected item is the longest path the URL starts with. */
export function SideMenuLayout({ items, ariaLabel }: { items: SideMenuItem[]; ariaLabel: string }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const selected = items
    .filter((item) => pathname === item.path || pathname.startsWith(`${item.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];

  return (
    <Layout style={{ background: 'transparent', gap: 24 }}>
      <Layout.Sider
        width={200}
        breakpoint="lg"
        collapsedWidth={0}
        style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG }}
      >
        <nav aria-label={ariaLabel}>
          <Menu
            mode="inline"
            selectedKeys={selected ? [selected.path] : []}
            items={items.map((item) => ({ key: item.path, label: item.label }))}
            onClick={({ key }) => navigate(key)}
            style={{ borderInlineEnd: 'none', borderRadius: token.borderRadiusLG }}
          />
        </nav>
      </Layout.Sider>
      <Layout.Content style={{ minWidth: 0 }}>
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
