import type {
  AdminUserImage,
  ImageQuota,
  ImageQuotaInput,
  PublishImageInput,
} from '@gpucloud/control-plane/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type ListResponse, toList } from '../../../lib/list';
import { imageKeys, marketKeys } from '../../../lib/query-keys';

/** Every user's saved images (管理后台 → 用户镜像); /api/admin/images itself is the app market's. */
export const ADMIN_IMAGES_PATH = '/api/admin/images';
export const SAVED_IMAGES_PATH = `${ADMIN_IMAGES_PATH}/saved`;

export async function getAdminUserImages(signal?: AbortSignal) {
  return toList(
    await api.get<ListResponse<AdminUserImage> | AdminUserImage[]>(SAVED_IMAGES_PATH, { signal }),
  );
}

export function useAdminUserImages() {
  return useQuery({ queryKey: imageKeys.admin(), queryFn: ({ signal }) => getAdminUserImages(signal) });
}

/** 发布到公共镜像: the image becomes a version of a catalogue framework. */
export function usePublishImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: PublishImageInput }) =>
      api.post<AdminUserImage>(`${ADMIN_IMAGES_PATH}/${encodeURIComponent(String(id))}/publish`, body),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: imageKeys.all }),
        queryClient.invalidateQueries({ queryKey: marketKeys.all }),
      ]),
  });
}

export function useSetImageQuota() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, body }: { userId: number; body: ImageQuotaInput }) =>
      api.put<ImageQuota>(`/api/admin/users/${encodeURIComponent(String(userId))}/image-quota`, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: imageKeys.all }),
  });
}
