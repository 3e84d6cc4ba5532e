import type { GpuMetrics, GpuNode } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { nodeKeys } from '../../../lib/query-keys';
import { NODE_REFRESH_MS } from './get-nodes';

export function useNode(id: number | string | undefined) {
  return useQuery({
    queryKey: nodeKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<GpuNode>(`/api/admin/nodes/${id}`, { signal }),
    enabled: id !== undefined,
    refetchInterval: NODE_REFRESH_MS,
  });
}

/** GPU samples of the node (one per 15 s bucket), refreshed as new ones arrive. */
export function useNodeMetrics(id: number | string | undefined, minutes = 60) {
  return useQuery({
    queryKey: nodeKeys.metrics(id ?? '', minutes),
    queryFn: ({ signal }) =>
      api.get<GpuMetrics>(`/api/admin/nodes/${id}/metrics`, { signal, params: { minutes } }),
    enabled: id !== undefined,
    refetchInterval: NODE_REFRESH_MS,
  });
}
