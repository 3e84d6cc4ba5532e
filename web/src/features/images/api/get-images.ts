import type { ImageCompare, UserImageDetail, UserImageList } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { imageKeys } from '../../../lib/query-keys';
import { anySaving } from '../types';

/** The user's images API (我的镜像); the list is /mine (GET /api/images is the app market's). */
export const IMAGES_PATH = '/api/images';
export const MY_IMAGES_PATH = `${IMAGES_PATH}/mine`;
export const imagePath = (id: number) => `${IMAGES_PATH}/${encodeURIComponent(String(id))}`;

/** While an image is being saved, its progress is read again every second. */
export const SAVING_POLL_MS = 1000;

export function getImages(signal?: AbortSignal) {
  return api.get<UserImageList>(MY_IMAGES_PATH, { signal });
}

/** The user's images and quota; refreshed every second while any of them is being saved. */
export function useImages(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: imageKeys.list(),
    queryFn: ({ signal }) => getImages(signal),
    enabled: options.enabled ?? true,
    refetchInterval: (query) => (anySaving(query.state.data?.images) ? SAVING_POLL_MS : false),
  });
}

export function useImage(id: number) {
  return useQuery({
    queryKey: imageKeys.detail(id),
    queryFn: ({ signal }) => api.get<UserImageDetail>(imagePath(id), { signal }),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: (query) => (query.state.data?.status === 'saving' ? SAVING_POLL_MS : false),
  });
}

export function useImageCompare(a: number, b: number) {
  return useQuery({
    queryKey: imageKeys.compare(a, b),
    queryFn: ({ signal }) => api.get<ImageCompare>(`${IMAGES_PATH}/compare`, { signal, params: { a, b } }),
    enabled: Number.isInteger(a) && a > 0 && Number.isInteger(b) && b > 0,
  });
}

/** Saves the generated Dockerfile (an authenticated request, so not a plain link). */
export async function downloadDockerfile(id: number): Promise<void> {
  const file = await api.get<Blob>(`${imagePath(id)}/dockerfile`, {
    as: 'blob',
    headers: { Accept: 'text/plain' },
  });
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'Dockerfile';
  a.click();
  URL.revokeObjectURL(url);
}
