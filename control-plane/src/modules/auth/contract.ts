// Sign-in and the forgot-password wizard's replies, written once: the services are typed by them
// and the console imports their types (src/api.ts). Only zod here.
import { z } from 'zod';

/** POST /api/auth/login and /api/auth/register: the session. */
export const authReply = z.object({
  token: z.string(),
  username: z.string(),
  nickname: z.string().nullable(),
  is_admin: z.boolean(),
});
export type AuthReply = z.infer<typeof authReply>;

/** POST /api/auth/check-username: the account's verified contacts, masked (null when absent). */
export const resetContactsReply = z.object({
  username: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});
export type ResetContactsReply = z.infer<typeof resetContactsReply>;
