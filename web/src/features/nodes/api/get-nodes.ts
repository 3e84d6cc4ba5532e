import type { GpuNodeList } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { nodeKeys } from '../../../lib/query-keys';

export const NODE_REFRESH_MS = 15_000;

export async function getNodes(signal?: AbortSignal) {
  return toList(await api.get<GpuNodeList>('/api/admin/nodes', { signal }));
}

/** Refreshed every 15 s so heartbeats and status changes show without reloading. */
export function useNodes() {
  return useQuery({
    queryKey: nodeKeys.list(),
    queryFn: ({ signal }) => getNodes(signal),
    refetchInterval: NODE_REFRESH_MS,
  });
}
