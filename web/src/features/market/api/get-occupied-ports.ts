import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { marketKeys } from '../../../lib/query-keys';
import type { EntityId } from '../types';

export async function getOccupiedPorts(productId: EntityId, signal?: AbortSignal): Promise<number[]> {
  const data = await api.get<Array<number | string>>(
    `/api/cloud-products/${encodeURIComponent(String(productId))}/port`,
    { signal },
  );
  return (Array.isArray(data) ? data : []).map(Number).filter(Number.isInteger);
}

export function useOccupiedPorts(productId: EntityId | null) {
  return useQuery({
    queryKey: marketKeys.occupiedPorts(productId ?? ''),
    queryFn: ({ signal }) => getOccupiedPorts(productId ?? '', signal),
    enabled: productId !== null,
  });
}
