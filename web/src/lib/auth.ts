import { useSyncExternalStore } from 'react';

/** localStorage keys the spec names for the client session. */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';
export const API_KEY_KEY = 'apiKey';
/** Where a guarded route remembers the page the visitor wanted before signing in. */
export const REDIRECT_KEY = 'redirectAfterLogin';

export interface SessionUser {
  username: string;
  nickname: string;
  isAdmin: boolean;
}

export interface Session {
  token: string | null;
  user: SessionUser | null;
}

const listeners = new Set<() => void>();
let cachedRaw: { token: string | null; user: string | null } | null = null;
let cachedSession: Session = { token: null, user: null };

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be disabled (private mode, sandboxed frames): behave as signed out.
    return null;
  }
}

function parseUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const record = value as Record<string, unknown>;
    if (typeof record.username !== 'string') return null;
    return {
      username: record.username,
      nickname: typeof record.nickname === 'string' ? record.nickname : '',
      isAdmin: record.isAdmin === true,
    };
  } catch {
    return null;
  }
}

/** The current session; the same object is returned until storage changes (useSyncExternalStore needs that). */
export function getSession(): Session {
  const token = readStorage(TOKEN_KEY);
  const user = readStorage(USER_KEY);
  if (!cachedRaw || cachedRaw.token !== token || cachedRaw.user !== user) {
    cachedRaw = { token, user };
    cachedSession = { token: token || null, user: parseUser(user) };
  }
  return cachedSession;
}

export function getToken(): string | null {
  return getSession().token;
}

export function getApiKey(): string | null {
  return readStorage(API_KEY_KEY);
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function setSession(token: string, user: SessionUser): void {
  window.localStorage.setItem(TOKEN_KEY, token);
  window.localStorage.setItem(USER_KEY, JSON.stringify(user));
  notify();
}

/** Logout as the spec defines it: token, user and API key go. */
export function clearSession(): void {
  window.localStorage.removeItem(TOKEN_KEY);
  window.localStorage.removeItem(USER_KEY);
  window.localStorage.removeItem(API_KEY_KEY);
  notify();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_KEY || event.key === USER_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const SIGNED_OUT: Session = { token: null, user: null };
const signedOut = () => SIGNED_OUT;

/**
 * Re-renders the caller on login, logout and changes made in other tabs. A prerendered page is
 * drawn signed out (web/src/prerender.tsx): hydration starts from that and then renders the
 * stored session, so a signed-in visitor gets no hydration mismatch.
 */
export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession, signedOut);
}

/** Accepts only same-site paths so a crafted ?redirect= cannot send the user elsewhere. */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value === '/login' || value.startsWith('/login?')) return null;
  return value;
}

export function storeRedirect(path: string): void {
  const safe = safeRedirectPath(path);
  if (safe) window.sessionStorage.setItem(REDIRECT_KEY, safe);
}

/** Reads and forgets the stored redirect. */
export function takeStoredRedirect(): string | null {
  const value = window.sessionStorage.getItem(REDIRECT_KEY);
  window.sessionStorage.removeItem(REDIRECT_KEY);
  return safeRedirectPath(value);
}

export function loginPathFor(target: string): string {
  return `/login?redirect=${encodeURIComponent(target)}`;
}
