import { type SideMenuItem, SideMenuLayout } from './side-menu-layout';

const ADMIN_MENU: SideMenuItem[] = [
  { path: '/admin/nodes', label: '节点' },
  { path: '/admin/containers', label: '容器' },
];

export function Component() {
  return <SideMenuLayout items={ADMIN_MENU} ariaLabel="管理后台" />;
}
