import type { CloudProduct } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { appKeys } from '../../../lib/query-keys';
import type { DeployGpuType } from '../types';

/** The key of the drawer's quote, under the app market's keys (a deploy refreshes it). */
export const deployQuoteKey = (imageId: number, gpuType: DeployGpuType, gpuCount: number) =>
  [...appKeys.all, 'deploy-quote', imageId, gpuType, gpuCount] as const;

/** The server a deploy of these choices would use now: its price is the one the drawer shows. */
export function getDeployQuote(
  imageId: number,
  gpuType: DeployGpuType,
  gpuCount: number,
  signal?: AbortSignal,
): Promise<CloudProduct> {
  return api.get<CloudProduct>('/api/apps/deploy-quote', {
    params: { image_id: imageId, gpu_type: gpuType, gpuCount },
    signal,
  });
}

export function useDeployQuote(
  imageId: number,
  gpuType: DeployGpuType | undefined,
  gpuCount: number | undefined,
) {
  return useQuery({
    queryKey: deployQuoteKey(imageId, gpuType ?? 'rtx4090', gpuCount ?? 1),
    queryFn: ({ signal }) => getDeployQuote(imageId, gpuType ?? 'rtx4090', gpuCount ?? 1, signal),
    enabled: gpuType !== undefined && gpuCount !== undefined,
    // The price and availability move with every purchase: ask again on each opening.
    staleTime: 0,
    retry: false,
  });
}
