import type { AppImage } from '@gpucloud/control-plane/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { appKeys } from '../../../lib/query-keys';
import { imageQueryParams } from '../categories';
import type { AppCategory } from '../types';

export async function getAppImages(category: AppCategory, search: string, signal?: AbortSignal) {
  const data = await api.get<AppImage[]>('/api/images', {
    params: imageQueryParams(category, search),
    signal,
  });
  return toList(data).items;
}

export function useAppImages(category: AppCategory, search: string) {
  return useQuery({
    queryKey: appKeys.images(category, search.trim()),
    queryFn: ({ signal }) => getAppImages(category, search, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
