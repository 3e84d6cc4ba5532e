import type { GpuNodeList } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { nodeKeys } from '../../../lib/query-keys';

export const NODE_REFRESH_MS = 15_000;
/** While a node's agent is upgrading, the list is read this often (升级中 until its new version shows). */
export const NODE_UPGRADE_REFRESH_MS = 2000;

export async function getNodes(signal?: AbortSignal) {
  return toList(await api.get<GpuNodeList>('/api/admin/nodes', { signal }));
}

/** Refreshed every 15 s so heartbeats and status changes show without reloading (faster while one upgrades). */
export function useNodes() {
  return useQuery({
    queryKey: nodeKeys.list(),
    queryFn: ({ signal }) => getNodes(signal),
    refetchInterval: (query) =>
      query.state.data?.items.some((n) => n.upgrading_since) ? NODE_UPGRADE_REFRESH_MS : NODE_REFRESH_MS,
  });
}
