import type {
  Coupon,
  CouponGrant,
  CouponList,
  CouponStatus,
  GrantedCoupons,
} from '@gpucloud/control-plane/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';

export const couponKeys = {
  all: ['coupons'] as const,
  mine: (page: number, size: number, status: string) => ['coupons', 'mine', page, size, status] as const,
  admin: (page: number, size: number, status: string, username: string) =>
    ['coupons', 'admin', page, size, status, username] as const,
};

export function useCoupons(page: number, size: number, status: CouponStatus | 'all') {
  return useQuery({
    queryKey: couponKeys.mine(page, size, status),
    queryFn: async ({ signal }) =>
      toList(
        await api.get<CouponList>('/api/coupons', {
          signal,
          params: { page, page_size: size, status: status === 'all' ? undefined : status },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useAdminCoupons(page: number, size: number, status: CouponStatus | 'all', username: string) {
  return useQuery({
    queryKey: couponKeys.admin(page, size, status, username),
    queryFn: async ({ signal }) =>
      toList(
        await api.get<CouponList>('/api/admin/coupons', {
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

function useCouponCommand<T, R>(command: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: command,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: couponKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['billing'] }),
      ]),
  });
}

export const useUseCoupon = () =>
  useCouponCommand((id: number) => api.post<Coupon>(`/api/coupons/${id}/use`));

export const useGrantCoupons = () =>
  useCouponCommand((body: CouponGrant) => api.post<GrantedCoupons>('/api/admin/coupons', body));
export const useRevokeCoupon = () =>
  useCouponCommand((id: number) => api.delete<{ ok: boolean }>(`/api/admin/coupons/${id}`));
