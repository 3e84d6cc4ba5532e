import type { Profile } from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { profileKeys } from '../../../lib/query-keys';

export const sendPhoneCode = (phone: string) =>
  api.post<{ ok: boolean }>('/api/user/send-phone-code', { phone });
export const verifyPhone = (input: { phone: string; code: string }) =>
  api.post<Profile>('/api/user/verify-phone', input);
export const resetPhone = () => api.post<Profile>('/api/user/reset-phone');
export const sendEmailCode = (email: string) =>
  api.post<{ ok: boolean }>('/api/auth/send-verify-code', { email, method: 'email' });
export const verifyEmail = (code: string) =>
  api.post<Profile>('/api/auth/verify-email', { verify_code: code });
export const saveSshKey = (sshKey: string) => api.put<Profile>('/api/user/ssh-key', { ssh_key: sshKey });

/**
 * A mutation whose answer is the new profile: it replaces the cached one. The callbacks are the
 * mutation's own (not per call), so they run even when the new profile remounts the caller.
 */
export function useProfileMutation<TInput>(
  mutationFn: (input: TInput) => Promise<Profile>,
  callbacks: { onSuccess?: () => void; onError?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileKeys.info(), profile);
      callbacks.onSuccess?.();
    },
    onError: (error) => callbacks.onError?.(error),
  });
}
