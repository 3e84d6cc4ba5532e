import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type ListResponse, toList } from '../../../lib/list';
import { marketKeys } from '../../../lib/query-keys';
import { type MarketFilters, productQueryParams } from '../filters';
import type { CloudProduct } from '../types';

export async function getCloudProducts(filters: MarketFilters, signal?: AbortSignal) {
  const data = await api.get<ListResponse<CloudProduct> | CloudProduct[]>('/api/cloud-products', {
    params: productQueryParams(filters),
    signal,
  });
  return toList(data);
}

export function useCloudProducts(filters: MarketFilters) {
  return useQuery({
    queryKey: marketKeys.products(filters),
    queryFn: ({ signal }) => getCloudProducts(filters, signal),
  });
}
