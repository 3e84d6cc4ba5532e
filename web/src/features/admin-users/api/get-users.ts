import type { AdminUserDetail, AdminUserList } from '@gpucloud/control-plane/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { adminUserKeys } from '../../../lib/query-keys';
import type { UserListQuery } from '../types';

export function useAdminUsers(query: UserListQuery) {
  return useQuery({
    queryKey: adminUserKeys.list(query),
    queryFn: async ({ signal }) =>
      toList(
        await api.get<AdminUserList>('/api/admin/users', {
          signal,
          params: { page: query.page, size: query.size, keyword: query.keyword },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useAdminUser(id: number | null) {
  return useQuery({
    queryKey: adminUserKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<AdminUserDetail>(`/api/admin/users/${id}`, { signal }),
    enabled: id !== null,
  });
}
