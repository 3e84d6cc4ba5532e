import { describe, expect, it } from 'vitest';
import {
  clearSession,
  getSession,
  loginPathFor,
  safeRedirectPath,
  setSession,
  storeRedirect,
  subscribeSession,
  takeStoredRedirect,
} from './auth';

describe('session store', () => {
  it('stores token and user under the spec keys and notifies subscribers', () => {
    let notified = 0;
    const unsubscribe = subscribeSession(() => {
      notified += 1;
    });
    setSession('t1', { username: 'alice', nickname: '', isAdmin: true });
    expect(localStorage.getItem('token')).toBe('t1');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toEqual({
      username: 'alice',
      nickname: '',
      isAdmin: true,
    });
    expect(getSession()).toEqual({ token: 't1', user: { username: 'alice', nickname: '', isAdmin: true } });
    expect(notified).toBe(1);
    unsubscribe();
  });

  it('returns the same snapshot while storage is unchanged', () => {
    setSession('t2', { username: 'bob', nickname: '小鲍', isAdmin: false });
    expect(getSession()).toBe(getSession());
  });

  it('logout clears token, user and api key', () => {
    setSession('t3', { username: 'carol', nickname: '', isAdmin: false });
    localStorage.setItem('apiKey', 'k');
    clearSession();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('apiKey')).toBeNull();
    expect(getSession()).toEqual({ token: null, user: null });
  });

  it('a malformed stored user reads as no user', () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('user', '{not json');
    expect(getSession().user).toBeNull();
  });
});

describe('redirects', () => {
  it('accepts only same-site paths', () => {
    expect(safeRedirectPath('/user/containers?x=1')).toBe('/user/containers?x=1');
    expect(safeRedirectPath('//evil.example')).toBeNull();
    expect(safeRedirectPath('https://evil.example')).toBeNull();
    expect(safeRedirectPath('/login?redirect=/x')).toBeNull();
    expect(safeRedirectPath(null)).toBeNull();
  });

  it('a stored redirect is read once', () => {
    storeRedirect('/market');
    expect(takeStoredRedirect()).toBe('/market');
    expect(takeStoredRedirect()).toBeNull();
  });

  it('builds /login?redirect=<path>', () => {
    expect(loginPathFor('/user/containers')).toBe('/login?redirect=%2Fuser%2Fcontainers');
  });
});
