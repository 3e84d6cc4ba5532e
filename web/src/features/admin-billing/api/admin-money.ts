import type { AdminPaymentList, AdminUserList, Balance } from '@gpucloud/control-plane/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';

export const adminMoneyKeys = {
  payments: (page: number, size: number, status: string, username: string) =>
    ['admin', 'payments', page, size, status, username] as const,
};

export function useAdminPayments(page: number, size: number, status: string, username: string) {
  return useQuery({
    queryKey: adminMoneyKeys.payments(page, size, status, username),
    queryFn: async ({ signal }) =>
      toList(
        await api.get<AdminPaymentList>('/api/admin/payments', {
          signal,
          params: {
            page,
            size,
            status: status === 'all' ? undefined : status,
            username: username || undefined,
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** Finds the user by exact username, then books the adjustment (a ledger row naming the admin). */
export function useAdjustBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { username: string; amount: number; reason: string }) => {
      const found = await api.get<AdminUserList>('/api/admin/users', {
        params: { keyword: input.username, page: 1, size: 100 },
      });
      const user = found.items.find((u) => u.username === input.username);
      if (!user) throw new Error('用户不存在');
      return api.post<Balance>(`/api/admin/users/${user.id}/balance`, {
        amount: input.amount,
        reason: input.reason,
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
