import type { WechatAuthorize } from '@gpucloud/control-plane/api';

const STATE_KEY = 'wechatOAuth';

export type WechatPurpose = 'login' | 'bind';

/** Leaving the console for WeChat's page (tests replace `go`). */
export const externalNavigation = {
  go(url: string): void {
    window.location.assign(url);
  },
};

/**
 * Remembers the state this tab started with: the callback only accepts that state, so a link
 * carrying somebody else's code and state (login CSRF) is refused.
 */
export function beginWechatFlow(purpose: WechatPurpose, answer: WechatAuthorize): void {
  window.sessionStorage.setItem(STATE_KEY, JSON.stringify({ purpose, state: answer.state }));
  externalNavigation.go(answer.authorize_url);
}

/** Reads and forgets the flow this tab started; undefined when there is none. */
export function takeWechatFlow(): { purpose: WechatPurpose; state: string } | undefined {
  const raw = window.sessionStorage.getItem(STATE_KEY);
  window.sessionStorage.removeItem(STATE_KEY);
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as { purpose?: unknown; state?: unknown };
    if ((value.purpose === 'login' || value.purpose === 'bind') && typeof value.state === 'string') {
      return { purpose: value.purpose, state: value.state };
    }
  } catch {
    // A damaged entry is no flow.
  }
  return undefined;
}
