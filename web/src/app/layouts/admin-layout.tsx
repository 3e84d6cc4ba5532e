import { type SideMenuItem, SideMenuLayout } from './side-menu-layout';

const ADMIN_MENU: SideMenuItem[] = [
  { path: '/admin/containers', label: '容器' },
  { path: '/admin/nodes', label: '节点' },
  { path: '/admin/users', label: '用户' },
  { path: '/admin/outbox', label: '发信记录' },
  { path: '/admin/products', label: '产品' },
  { path: '/admin/images', label: '镜像' },
  { path: '/admin/user-images', label: '用户镜像' },
  { path: '/admin/coupons', label: '卡券' },
  { path: '/admin/invoices', label: '发票' },
  { path: '/admin/payments', label: '支付记录' },
];

export function Component() {
  return <SideMenuLayout items={ADMIN_MENU} ariaLabel="管理后台" />;
}
