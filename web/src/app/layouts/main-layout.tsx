import { Layout } from 'antd';
import { Outlet } from 'react-router-dom';
import { AppHeader } from './app-header';

export function MainLayout() {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <AppHeader />
      <Layout.Content style={{ padding: 24, width: '100%', maxWidth: 1440, margin: '0 auto' }}>
        <Outlet />
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center', color: 'rgba(0,0,0,0.45)' }}>
        © {new Date().getFullYear()} GPU 云平台
      </Layout.Footer>
    </Layout>
  );
}
