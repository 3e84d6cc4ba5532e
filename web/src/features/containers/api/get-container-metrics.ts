import type { ContainerMetrics, ContainerMetricsRange } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { containerKeys } from '../../../lib/query-keys';

/** 监控: the container's GPUs over the range (per minute for 1h, per 5 minutes for 24h). */
export function useContainerMetrics(id: string | undefined, range: ContainerMetricsRange = '1h') {
  return useQuery({
    queryKey: containerKeys.metrics(id ?? '', range),
    queryFn: ({ signal }) =>
      api.get<ContainerMetrics>(`/api/containers/${id}/metrics`, { signal, params: { range } }),
    enabled: id !== undefined,
    // A new point comes every minute (1h) or every 5 minutes (24h).
    refetchInterval: range === '1h' ? 30_000 : 60_000,
  });
}
