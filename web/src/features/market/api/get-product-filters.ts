import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { marketKeys } from '../../../lib/query-keys';

export function getRegions(signal?: AbortSignal) {
  return api.get<string[]>('/api/cloud-products/regions', { signal });
}

export function getGpuTypes(signal?: AbortSignal) {
  return api.get<string[]>('/api/cloud-products/gpu-types', { signal });
}

export function useRegions() {
  return useQuery({
    queryKey: marketKeys.regions(),
    queryFn: ({ signal }) => getRegions(signal),
    staleTime: 300_000,
  });
}

export function useGpuTypes() {
  return useQuery({
    queryKey: marketKeys.gpuTypes(),
    queryFn: ({ signal }) => getGpuTypes(signal),
    staleTime: 300_000,
  });
}
