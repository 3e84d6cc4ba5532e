import type { AdminUser } from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminUserKeys } from '../../../lib/query-keys';

export type UserAction = 'disable' | 'enable' | 'grant-admin' | 'revoke-admin';

export const ACTION_TEXT: Record<
  UserAction,
  { label: string; confirm: string; done: string; failed: string }
> = {
  disable: {
    label: '禁用',
    confirm: '禁用后该用户立即退出登录，API 密钥失效。确定禁用吗？',
    done: '已禁用',
    failed: '禁用失败',
  },
  enable: { label: '启用', confirm: '确定启用该用户吗？', done: '已启用', failed: '启用失败' },
  'grant-admin': {
    label: '设为管理员',
    confirm: '管理员可以管理所有用户、容器和节点。确定授予管理员权限吗？',
    done: '已设为管理员',
    failed: '授予管理员失败',
  },
  'revoke-admin': {
    label: '取消管理员',
    confirm: '确定撤销该用户的管理员权限吗？',
    done: '已取消管理员',
    failed: '撤销管理员失败',
  },
};

export function useUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: UserAction }) =>
      api.post<AdminUser>(`/api/admin/users/${id}/${action}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
  });
}
