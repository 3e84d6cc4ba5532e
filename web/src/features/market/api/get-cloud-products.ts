import type { CloudProductList } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { marketKeys } from '../../../lib/query-keys';
import { type MarketFilters, productQueryParams } from '../filters';

export async function getCloudProducts(filters: MarketFilters, signal?: AbortSignal) {
  const data = await api.get<CloudProductList>('/api/cloud-products', {
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
