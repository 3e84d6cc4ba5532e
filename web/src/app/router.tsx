import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { AuthLayout } from './layouts/auth-layout';
import { MainLayout, PublicLayout, RouteLoading, ShellLoading } from './layouts/main-layout';
import { RequireAdmin, RequireAuth } from './route-guards';
import { Component as HomePage } from './routes/home';
import { RouteError } from './routes/route-error';

export interface RouteHandle {
  title?: string;
}

type LazyRoute = NonNullable<RouteObject['lazy']>;

function page(path: string, title: string, lazy: LazyRoute): RouteObject {
  const handle: RouteHandle = { title };
  return { path, handle, lazy };
}

/**
 * The spec's route table. Three branches under the base layout (header on every page):
 * - public pages, rendered without antd (the home page must stay small);
 * - sign-in and register, without antd until register mode opens (/login must load little);
 * - every antd screen, under the lazily loaded console shell that brings antd's providers.
 * Guards: RequireAuth (token, else /login?redirect=…), RequireAdmin (token and admin flag; the
 * server checks the flag again on every admin call).
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <MainLayout />,
    errorElement: <RouteError />,
    HydrateFallback: ShellLoading,
    children: [
      {
        element: <PublicLayout />,
        HydrateFallback: RouteLoading,
        children: [
          // The landing page ships in the entry chunk: no second round trip before it paints.
          { index: true, Component: HomePage },
          page('gpu-servers', '裸金属GPU', () => import('./routes/site/gpu-servers')),
          page('private-cloud', '私有云', () => import('./routes/site/private-cloud')),
          page('docs', '文档中心', () => import('./routes/site/docs')),
          page('about', '关于我们', () => import('./routes/site/about')),
          page('contact', '联系我们', () => import('./routes/site/contact')),
          page('jobs', '加入我们', () => import('./routes/site/jobs')),
          page('sitemap', '网站地图', () => import('./routes/site/sitemap')),
          page('cooperation', '商务合作', () => import('./routes/site/cooperation')),
          page('agreement', '服务条款', () => import('./routes/site/agreement')),
          page('privacy', '隐私政策', () => import('./routes/site/privacy')),
          page('*', '页面不存在', () => import('./routes/not-found')),
        ],
      },
      { path: 'account', element: <Navigate to="/user/profile" replace /> },
      {
        // Sign-in and register: the console's frame without antd (/login must load little).
        element: <AuthLayout />,
        HydrateFallback: RouteLoading,
        children: [
          page('login', '登录', () => import('./routes/login')),
          page('register', '注册', () => import('./routes/register')),
        ],
      },
      {
        lazy: () => import('./layouts/console-shell'),
        children: [
          page('forgot-password', '找回密码', () => import('./routes/forgot-password')),
          page('wechat-callback', '微信登录', () => import('./routes/wechat-callback')),
          page('wechat-sandbox', '微信授权（沙箱）', () => import('./routes/wechat-sandbox')),
          // What the payment QR opens without WeChat Pay credentials; only the order's owner,
          // signed in, may pay it (the server refuses anyone else).
          page('pay/sandbox/:outTradeNo', '微信支付（沙箱）', () => import('./routes/pay-sandbox')),
          page('apps', '应用市场', () => import('./routes/apps')),
          // The API reference, read from GET /api/openapi.json: public docs, no sign-in.
          page('docs/api', 'API 文档', () => import('./routes/api-docs')),
          {
            element: <RequireAuth />,
            children: [
              page('market', '轻量实例', () => import('./routes/market')),
              { path: 'containers', element: <Navigate to="/user/containers" replace /> },
              {
                path: 'user',
                lazy: () => import('./layouts/user-layout'),
                children: [
                  { index: true, element: <Navigate to="/user/containers" replace /> },
                  page('containers', '我的容器', () => import('./routes/containers')),
                  page('profile', '个人中心', () => import('./routes/profile')),
                  page('storage', '存储管理', () => import('./routes/storage')),
                  page('images', '我的镜像', () => import('./routes/images')),
                  page('images/compare', '镜像对比', () => import('./routes/image-compare')),
                  page('images/:id', '镜像详情', () => import('./routes/image-detail')),
                  page('orders', '我的订单', () => import('./routes/orders')),
                  page('balance', '余额', () => import('./routes/balance')),
                  page('billing-records', '账单记录', () => import('./routes/billing-records')),
                  page('mcp', 'MCP 控制台', () => import('./routes/mcp')),
                ],
              },
              page('orders', '订单', () => import('./routes/orders')),
              page('transactions', '交易记录', () => import('./routes/transactions')),
              page('invoices', '发票', () => import('./routes/invoices')),
              page('coupons', '卡券', () => import('./routes/coupons')),
            ],
          },
          {
            path: 'admin',
            element: <RequireAdmin />,
            children: [
              {
                lazy: () => import('./layouts/admin-layout'),
                children: [
                  { index: true, element: <Navigate to="/admin/containers" replace /> },
                  page('nodes', '节点管理', () => import('./routes/admin/nodes')),
                  page('containers', '容器管理', () => import('./routes/admin/containers')),
                  page('users', '用户管理', () => import('./routes/admin/users')),
                  page('outbox', '发信记录', () => import('./routes/admin/outbox')),
                  page('products', '产品管理', () => import('./routes/admin/products')),
                  page('images', '镜像管理', () => import('./routes/admin/images')),
                  page('user-images', '用户镜像', () => import('./routes/admin/user-images')),
                  page('coupons', '卡券管理', () => import('./routes/admin/coupons')),
                  page('invoices', '发票管理', () => import('./routes/admin/invoices')),
                  page('payments', '支付记录', () => import('./routes/admin/payments')),
                ],
              },
            ],
          },
        ],
      },
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
