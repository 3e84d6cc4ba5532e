import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type ListResponse, toList } from '../../../lib/list';
import { catalogueKeys } from '../../../lib/query-keys';
import type { EntityId } from '../../market/types';
import type { AdminImage, ImageInput } from '../types';
import { useCatalogueMutation } from './use-catalogue-mutation';

const path = (imageId: EntityId) => `/api/admin/images/${encodeURIComponent(String(imageId))}`;

export async function getAdminImages(signal?: AbortSignal) {
  return toList(await api.get<ListResponse<AdminImage>>('/api/admin/images', { signal }));
}

export function useAdminImages() {
  return useQuery({ queryKey: catalogueKeys.images(), queryFn: ({ signal }) => getAdminImages(signal) });
}

export const useSaveImage = () =>
  useCatalogueMutation(({ imageId, input }: { imageId?: EntityId; input: ImageInput }) =>
    imageId === undefined
      ? api.post<AdminImage>('/api/admin/images', input)
      : api.put<AdminImage>(path(imageId), input),
  );

export const useDeleteImage = () =>
  useCatalogueMutation((imageId: EntityId) => api.delete<{ ok: boolean }>(path(imageId)));
