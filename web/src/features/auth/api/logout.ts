import { api } from '../../../lib/api-client';

export function logout(): Promise<{ ok: boolean }> {
  return api.post<{ ok: boolean }>('/api/auth/logout');
}
