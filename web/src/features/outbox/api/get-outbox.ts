import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface OutboxMessage {
  id: number;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  body: string;
  code: string | null;
  created_at: string;
}

export interface OutboxList {
  items: OutboxMessage[];
  total: number;
  /** Which providers are live; 'sandbox' means messages land here instead. */
  providers: { email: 'smtp' | 'sandbox'; sms: 'aliyun' | 'sandbox' };
}

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
