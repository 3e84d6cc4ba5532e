import type { AppImageList, ImageInput, SavedImage } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { catalogueKeys } from '../../../lib/query-keys';
import type { EntityId } from '../../market/types';
import { useCatalogueMutation } from './use-catalogue-mutation';

const path = (imageId: EntityId) => `/api/admin/images/${encodeURIComponent(String(imageId))}`;

export async function getAdminImages(signal?: AbortSignal) {
  return toList(await api.get<AppImageList>('/api/admin/images', { signal }));
}

export function useAdminImages() {
  return useQuery({ queryKey: catalogueKeys.images(), queryFn: ({ signal }) => getAdminImages(signal) });
}

export const useSaveImage = () =>
  useCatalogueMutation(({ imageId, input }: { imageId?: EntityId; input: ImageInput }) =>
    imageId === undefined
      ? api.post<SavedImage>('/api/admin/images', input)
      : api.put<SavedImage>(path(imageId), input),
  );

export const useDeleteImage = () =>
  useCatalogueMutation((imageId: EntityId) => api.delete<{ ok: boolean }>(path(imageId)));
