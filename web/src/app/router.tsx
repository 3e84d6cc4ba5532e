import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { MainLayout } from './layouts/main-layout';
import { RequireAdmin, RequireAuth } from './route-guards';
import { RouteError } from './routes/route-error';

export interface RouteHandle {
  title?: string;
}

/** A route that is specified but not built yet: renders '功能开发中' inside the layout. */
function planned(path: string, title: string): RouteObject {
  const handle: RouteHandle = { title };
  return { path, handle, lazy: () => import('./routes/planned') };
}

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <MainLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: () => import('./routes/home') },
      { path: 'login', lazy: () => import('./routes/login') },
      { path: 'register', lazy: () => import('./routes/register') },
      planned('forgot-password', '找回密码'),
      planned('wechat-callback', '微信登录'),
      planned('apps', '应用市场'),
      planned('gpu-servers', '裸金属GPU'),
      planned('private-cloud', '私有云'),
      planned('docs', '文档中心'),
      planned('about', '关于我们'),
      planned('contact', '联系我们'),
      planned('jobs', '加入我们'),
      planned('sitemap', '网站地图'),
      planned('cooperation', '商务合作'),
      planned('agreement', '服务条款'),
      planned('privacy', '隐私政策'),
      {
        element: <RequireAuth />,
        children: [
          { path: 'market', lazy: () => import('./routes/market') },
          { path: 'containers', lazy: () => import('./routes/containers') },
          {
            path: 'user',
            lazy: () => import('./layouts/user-layout'),
            children: [
              { index: true, element: <Navigate to="/user/containers" replace /> },
              { path: 'containers', lazy: () => import('./routes/containers') },
              planned('profile', '个人中心'),
              planned('storage', '存储管理'),
              planned('orders', '我的订单'),
              planned('balance', '余额'),
              planned('billing-records', '账单记录'),
              planned('mcp', 'MCP 控制台'),
            ],
          },
          planned('orders', '订单'),
          planned('transactions', '交易记录'),
          planned('invoices', '发票'),
          planned('coupons', '卡券'),
          { path: 'account', element: <Navigate to="/user/profile" replace /> },
        ],
      },
      {
        path: 'admin',
        element: <RequireAdmin />,
        children: [
          {
            lazy: () => import('./layouts/admin-layout'),
            children: [
              { index: true, element: <Navigate to="/admin/nodes" replace /> },
              { path: 'nodes', lazy: () => import('./routes/admin/nodes') },
              planned('containers', '容器管理'),
              planned('users', '用户管理'),
              planned('products', '产品管理'),
              planned('images', '镜像管理'),
              planned('coupons', '卡券管理'),
            ],
          },
        ],
      },
      { path: '*', lazy: () => import('./routes/not-found') },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes, {
    future: {
      v7_relativeSplatPath: true,
      v7_fetcherPersist: true,
      v7_normalizeFormMethod: true,
      v7_partialHydration: true,
      v7_skipActionErrorRevalidation: true,
    },
  });
}
