import { api } from '../../../lib/api-client';

/** Countdown of the e-mail code button (spec §9). */
export const EMAIL_CODE_COUNTDOWN_S = 600;

export function sendEmailVerifyCode(email: string) {
  return api.post<{ ok: boolean; expires_in: number }>(
    '/api/auth/send-email-verify-code',
    { email },
    { anonymous: true },
  );
}
