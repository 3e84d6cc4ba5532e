import type { ResetCodeInput, ResetContacts } from '@gpucloud/control-plane/api';
import { api } from '../../../lib/api-client';

export type ResetMethod = ResetCodeInput['method'];

/** Countdown of the reset code's resend button (document 2, §9). */
export const RESET_CODE_COUNTDOWN_S = 60;

const anonymous = { anonymous: true } as const;

export function checkUsername(username: string) {
  return api.post<ResetContacts>('/api/auth/check-username', { username }, anonymous);
}

export function sendResetCode(input: ResetCodeInput) {
  return api.post<{ ok: boolean; target: string }>('/api/auth/send-reset-code', input, anonymous);
}

export function verifyResetCode(input: { username: string; code: string; method: ResetMethod }) {
  return api.post<{ ok: boolean }>('/api/auth/verify-reset-code', input, anonymous);
}

export function resetPassword(input: { username: string; password: string; code: string }) {
  return api.post<{ ok: boolean }>('/api/auth/reset-password', input, anonymous);
}
