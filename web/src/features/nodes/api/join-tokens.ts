import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { nodeKeys } from '../../../lib/query-keys';

// The join tokens of 添加节点 → 一键加入 (control-plane modules/fleet/join-contract.ts).

/** Body of POST /api/admin/nodes/join-tokens. */
export interface NewJoinToken {
  region: string;
  name?: string;
  /** 10-1440 (60 by default). */
  expires_minutes?: number;
}

/** POST /api/admin/nodes/join-tokens → 201: the token is shown once. */
export interface JoinTokenCreated {
  token: string;
  id?: number;
  expires_at: string;
  command: string;
  script_url: string;
}

export interface JoinToken {
  id: number;
  name: string | null;
  region: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  node_id: number | null;
  status: 'pending' | 'used' | 'expired';
}

const joinTokenKeys = {
  list: () => [...nodeKeys.all, 'join-tokens'] as const,
};

/** The last 50 join tokens, newest first (refreshed while the dialog is open: a join uses one). */
export function useJoinTokens(enabled: boolean) {
  return useQuery({
    queryKey: joinTokenKeys.list(),
    queryFn: ({ signal }) => api.get<{ items: JoinToken[] }>('/api/admin/nodes/join-tokens', { signal }),
    enabled,
    refetchInterval: 5000,
  });
}

export function useCreateJoinToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewJoinToken) => api.post<JoinTokenCreated>('/api/admin/nodes/join-tokens', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: joinTokenKeys.list() }),
  });
}

/** 撤销: an unused token can no longer join. */
export function useRevokeJoinToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.delete<{ ok: boolean }>(`/api/admin/nodes/join-tokens/${encodeURIComponent(String(id))}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: joinTokenKeys.list() }),
  });
}
