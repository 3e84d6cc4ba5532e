import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { type DropdownItem, DropdownMenu } from '../../components/dropdown-menu';
import { Icon } from '../../components/icons';
import { logout } from '../../features/auth/api/logout';
import { clearSession, type SessionUser } from '../../lib/auth';

/** The user-centre pages of the header's user menu (spec order); 管理后台 only for admins. */
export function userMenuLinks(isAdmin: boolean): { to: string; label: string }[] {
  return [
    { to: '/user/profile', label: '个人中心' },
    { to: '/user/containers', label: '我的容器' },
    { to: '/user/storage', label: '存储管理' },
    { to: '/user/images', label: '我的镜像' },
    { to: '/user/orders', label: '我的订单' },
    { to: '/user/balance', label: '余额' },
    { to: '/user/billing-records', label: '账单记录' },
    { to: '/user/mcp', label: 'MCP 控制台' },
    ...(isAdmin ? [{ to: '/admin', label: '管理后台' }] : []),
  ];
}

export function UserMenu({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const signOut = async () => {
    try {
      await logout();
    } catch {
      // The session ends locally either way; an unreachable server must not keep the user signed in.
    }
    clearSession();
    queryClient.clear();
    navigate('/login');
  };

  const items: DropdownItem[] = [
    ...userMenuLinks(user.isAdmin).map((link) => ({ key: link.to, label: link.label, to: link.to })),
    { key: 'logout', label: '退出登录', danger: true, separatorBefore: true, onSelect: () => void signOut() },
  ];

  return (
    <DropdownMenu
      label={
        <>
          <Icon name="user" size={16} />
          <span className="user-menu-name">你好，{user.nickname || user.username}</span>
        </>
      }
      items={items}
      menuLabel="用户菜单"
      align="end"
      openOnHover
      testId="user-menu"
    />
  );
}
