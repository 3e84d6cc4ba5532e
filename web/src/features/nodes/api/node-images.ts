import type { NodeImage, NodeImages } from '@gpucloud/control-plane/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { marketKeys, nodeKeys } from '../../../lib/query-keys';
import { NODE_REFRESH_MS } from './get-nodes';

/** While a warm-up runs, its percentage is read this often. */
export const WARMING_REFRESH_MS = 2000;

/** The catalogue's images on the node (held, warming, failed or absent) and the image disk. */
export function useNodeImages(id: number | string | undefined) {
  return useQuery({
    queryKey: nodeKeys.images(id ?? ''),
    queryFn: ({ signal }) => api.get<NodeImages>(`/api/admin/nodes/${id}/images`, { signal }),
    enabled: id !== undefined,
    refetchInterval: (query) =>
      query.state.data?.items.some((i) => i.status === 'pulling') ? WARMING_REFRESH_MS : NODE_REFRESH_MS,
  });
}

/** 预热: the node pulls the image ahead of demand. */
export function useWarmImage(id: number | string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: string) => api.post<NodeImage>(`/api/admin/nodes/${id}/images/warm`, { image }),
    // The row turns 预热中 at once; the market marks the server once the image is there.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: nodeKeys.images(id) }),
        queryClient.invalidateQueries({ queryKey: marketKeys.all }),
      ]),
  });
}
