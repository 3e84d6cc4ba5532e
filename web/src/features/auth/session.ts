import type { AuthAnswer } from '@gpucloud/control-plane/api';
import { type SessionUser, safeRedirectPath, setSession, takeStoredRedirect } from '../../lib/auth';

export function sessionUserFrom(answer: AuthAnswer): SessionUser {
  return { username: answer.username, nickname: answer.nickname ?? '', isAdmin: answer.is_admin === true };
}

export function startSession(answer: AuthAnswer): void {
  setSession(answer.token, sessionUserFrom(answer));
}

/** Where to go after signing in: the ?redirect= query, else the stored route, else the market. */
export function postLoginPath(redirectQuery: string | null): string {
  const stored = takeStoredRedirect();
  return safeRedirectPath(redirectQuery) ?? stored ?? '/market';
}
