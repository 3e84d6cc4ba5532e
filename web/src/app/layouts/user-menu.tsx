import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useNavigate } from 'react-router-dom';
import { logout } from '../../features/auth/api/logout';
import { clearSession, type SessionUser } from '../../lib/auth';

const LOGOUT_KEY = 'logout';

export function userMenuItems(isAdmin: boolean): NonNullable<MenuProps['items']> {
  return [
    { key: '/user/profile', label: '个人中心' },
    { key: '/user/containers', label: '我的容器' },
    { key: '/user/storage', label: '存储管理' },
    { key: '/user/orders', label: '我的订单' },
    { key: '/user/balance', label: '余额' },
    { key: '/user/billing-records', label: '账单记录' },
    ...(isAdmin ? [{ key: '/admin', label: '管理后台' }] : []),
    { type: 'divider' as const },
    { key: LOGOUT_KEY, label: '退出登录', danger: true },
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

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === LOGOUT_KEY) void signOut();
    else navigate(key);
  };

  return (
    <Dropdown menu={{ items: userMenuItems(user.isAdmin), onClick }} trigger={['hover', 'click']}>
      <Button type="text" icon={<UserOutlined />} data-testid="user-menu">
        你好，{user.nickname || user.username} <DownOutlined />
      </Button>
    </Dropdown>
  );
}
