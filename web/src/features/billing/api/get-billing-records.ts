import type { BillingRecordList } from '@gpucloud/control-plane/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { billingKeys } from '../../../lib/query-keys';
import type { RecordQuery } from '../types';

export function useBillingRecords(query: RecordQuery) {
  return useQuery({
    queryKey: billingKeys.records(query),
    queryFn: async ({ signal }) =>
      toList(
        await api.get<BillingRecordList>('/api/billing/billing-records', {
          signal,
          params: {
            skip: (query.page - 1) * query.size,
            limit: query.size,
            type: query.type,
            start_date: query.startDate,
            end_date: query.endDate,
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
