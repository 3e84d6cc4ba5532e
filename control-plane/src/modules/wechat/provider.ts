/** Who signed in with WeChat, as the open platform reports it. */
export interface WechatIdentity {
  openid: string;
  unionid?: string | undefined;
  nickname: string;
}

/** WeChat answered errcode 40163: the code was already exchanged. */
export class WechatCodeUsedError extends Error {
  constructor() {
    super('code been used');
  }
}

export interface WechatIdentityProvider {
  readonly kind: 'open-platform' | 'sandbox' | 'disabled';
  /** The page the browser is sent to (WeChat's QR connect page, or the sandbox identity page). */
  authorizeUrl(p: { state: string; redirectUri: string; consoleOrigin: string }): string;
  /** Exchanges the one-time code from the callback for the user's identity. */
  exchange(code: string): Promise<WechatIdentity>;
}

/** WeChat login switched off (no credentials and WECHAT_SANDBOX=false): every call says so. */
export class DisabledWechatProvider implements WechatIdentityProvider {
  readonly kind = 'disabled';

  authorizeUrl(): string {
    throw new WechatDisabledError();
  }

  exchange(): Promise<WechatIdentity> {
    return Promise.reject(new WechatDisabledError());
  }
}

export class WechatDisabledError extends Error {
  constructor() {
    super('wechat login is not configured');
  }
}
