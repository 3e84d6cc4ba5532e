import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type ListResponse, toList } from '../../../lib/list';

export interface AdminPayment {
  id: number;
  out_trade_no: string;
  amount: number;
  provider: string;
  status: 'pending' | 'success' | 'failed' | 'closed';
  trade_state: string;
  transaction_id: string | null;
  description: string;
  order_id: number | null;
  create_time: string;
  paid_at: string | null;
  username: string;
}

export const adminMoneyKeys = {
  payments: (page: number, size: number, status: string, username: string) =>
    ['admin', 'payments', page, size, status, username] as const,
};

export function useAdminPayments(page: number, size: number, status: string, username: string) {
  return useQuery({
    queryKey: adminMoneyKeys.payments(page, size, status, username),
    queryFn: async ({ signal }) =>
      toList(
        await api.get<ListResponse<AdminPayment>>('/api/admin/payments', {
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
      const found = await api.get<ListResponse<{ id: number; username: string }>>('/api/admin/users', {
        params: { keyword: input.username, page: 1, size: 100 },
      });
      const user = found.items.find((u) => u.username === input.username);
      if (!user) throw new Error('用户不存在');
      return api.post<{ balance: number }>(`/api/admin/users/${user.id}/balance`, {
        amount: input.amount,
        reason: input.reason,
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
