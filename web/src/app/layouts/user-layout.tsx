import { type SideMenuItem, SideMenuLayout } from './side-menu-layout';

const USER_MENU: SideMenuItem[] = [
  { path: '/user/profile', label: '个人中心' },
  { path: '/user/containers', label: '我的容器' },
  { path: '/user/storage', label: '存储管理' },
  { path: '/user/images', label: '我的镜像' },
  { path: '/user/orders', label: '我的订单' },
  { path: '/user/balance', label: '余额' },
  { path: '/user/billing-records', label: '账单记录' },
  { path: '/user/mcp', label: 'MCP 控制台' },
];

export function Component() {
  return <SideMenuLayout items={USER_MENU} ariaLabel="用户中心" />;
}
