/** Answer of POST /api/auth/login and /api/auth/register. */
export interface AuthAnswer {
  token: string;
  username: string;
  nickname: string | null;
  is_admin: boolean;
}
