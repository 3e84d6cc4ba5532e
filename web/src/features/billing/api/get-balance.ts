import type { Balance, Statistics } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { billingKeys } from '../../../lib/query-keys';

export function useBalance() {
  return useQuery({
    queryKey: billingKeys.balance(),
    queryFn: ({ signal }) => api.get<Balance>('/api/billing/balance', { signal }),
  });
}

export function useStatistics() {
  return useQuery({
    queryKey: billingKeys.statistics(),
    queryFn: ({ signal }) => api.get<Statistics>('/api/billing/statistics', { signal }),
  });
}
