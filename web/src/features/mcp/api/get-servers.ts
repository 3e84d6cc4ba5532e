import type { CloudProductList } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { mcpKeys } from '../../../lib/query-keys';
import type { McpServerOption } from '../types';

/** The servers the create form offers: cloud products with status available. */
export async function getAvailableServers(signal?: AbortSignal): Promise<McpServerOption[]> {
  const list = toList(
    await api.get<CloudProductList>('/api/cloud-products', {
      params: { status: 'available' },
      signal,
    }),
  );
  return list.items.filter((p) => p.status === 'available');
}

export function useAvailableServers(enabled: boolean) {
  return useQuery({
    queryKey: mcpKeys.servers(),
    queryFn: ({ signal }) => getAvailableServers(signal),
    enabled,
  });
}
