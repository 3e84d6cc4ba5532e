import type { Profile } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { profileKeys } from '../../../lib/query-keys';

/** The profile; a 401 is left to the page (it says 登录已过期 before leaving). */
export function getProfile(signal?: AbortSignal) {
  return api.get<Profile>('/api/user/info', { signal, handlesUnauthorized: true });
}

export function useProfile() {
  return useQuery({
    queryKey: profileKeys.info(),
    queryFn: ({ signal }) => getProfile(signal),
    retry: false,
  });
}
