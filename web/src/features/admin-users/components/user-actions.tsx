import type { AdminUser } from '@gpucloud/control-plane/api';
import { App, Button, Popconfirm, Space } from 'antd';
import { withDetail } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth';
import { ACTION_TEXT, type UserAction, useUserAction } from '../api/user-commands';

function ActionButton({ user, action }: { user: AdminUser; action: UserAction }) {
  const { message } = App.useApp();
  const run = useUserAction();
  const text = ACTION_TEXT[action];
  return (
    <Popconfirm
      title={`${text.label}：${user.username}`}
      description={text.confirm}
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger: action === 'disable' || action === 'revoke-admin' }}
      onConfirm={() =>
        run.mutateAsync({ id: user.id, action }).then(
          () => {
            message.success(text.done);
          },
          (error: unknown) => {
            message.error(withDetail(text.failed, error));
          },
        )
      }
    >
      <Button
        type="link"
        size="small"
        danger={action === 'disable'}
        loading={run.isPending}
        data-testid={`user-${action}-${user.id}`}
      >
        {text.label}
      </Button>
    </Popconfirm>
  );
}

/** Disable / enable and grant / revoke admin; none of them on the signed-in admin's own row. */
export function UserActions({ user, onView }: { user: AdminUser; onView: (id: number) => void }) {
  const { user: me } = useSession();
  const self = me?.username === user.username;
  return (
    <Space size={0} wrap>
      <Button type="link" size="small" onClick={() => onView(user.id)} data-testid={`user-view-${user.id}`}>
        查看
      </Button>
      {self ? null : <ActionButton user={user} action={user.disabled ? 'enable' : 'disable'} />}
      {self ? null : <ActionButton user={user} action={user.is_admin ? 'revoke-admin' : 'grant-admin'} />}
    </Space>
  );
}
