import type { GpuMetrics } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { containerKeys } from '../../../lib/query-keys';

/** The container's own GPUs, sampled every 15 s on its node. */
export function useContainerMetrics(id: string | undefined, minutes = 60) {
  return useQuery({
    queryKey: containerKeys.metrics(id ?? '', minutes),
    queryFn: ({ signal }) =>
      api.get<GpuMetrics>(`/api/containers/${id}/metrics`, { signal, params: { minutes } }),
    enabled: id !== undefined,
    refetchInterval: 15_000,
  });
}
