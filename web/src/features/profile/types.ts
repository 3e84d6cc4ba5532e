/** GET /api/user/info. */
export interface Profile {
  id: number;
  username: string;
  nickname: string | null;
  email: string | null;
  phone: string | null;
  ssh_key: string | null;
  is_admin: boolean;
  is_phone_verified: boolean;
  is_email_verified: boolean;
  is_wechat_bound: boolean;
  wechat_nickname: string | null;
  balance: number;
}

/** Countdowns of the code buttons (spec §9): e-mail 600 s, phone 60 s. */
export const EMAIL_CODE_COUNTDOWN_S = 600;
export const PHONE_CODE_COUNTDOWN_S = 60;
export const SSH_KEY_MAX_LENGTH = 2048;
