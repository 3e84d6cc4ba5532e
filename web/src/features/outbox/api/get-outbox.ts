import type { OutboxList } from '@gpucloud/control-plane/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function useOutbox(query: { page: number; size: number; to: string }) {
  return useQuery({
    queryKey: ['admin', 'outbox', query] as const,
    queryFn: ({ signal }) =>
      api.get<OutboxList>('/api/admin/outbox', {
        signal,
        params: { page: query.page, size: query.size, to: query.to },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
}
