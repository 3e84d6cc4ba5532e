import { WechatCodeUsedError, type WechatIdentity, type WechatIdentityProvider } from './provider.js';

export interface WechatSettings {
  appId: string;
  appSecret: string;
  /** https://open.weixin.qq.com (the QR connect page). */
  openBaseUrl: string;
  /** https://api.weixin.qq.com (sns/oauth2/access_token, sns/userinfo). */
  apiBaseUrl: string;
}

interface WechatErrorAnswer {
  errcode?: number;
  errmsg?: string;
}

interface AccessTokenAnswer extends WechatErrorAnswer {
  access_token?: string;
  openid?: string;
  unionid?: string;
}

interface UserInfoAnswer extends WechatErrorAnswer {
  openid?: string;
  nickname?: string;
  unionid?: string;
}

/** WeChat Open Platform website login (OAuth2 QR connect, scope snsapi_login). */
export class WechatOpenPlatformProvider implements WechatIdentityProvider {
  readonly kind = 'open-platform';

  constructor(private readonly settings: WechatSettings) {}

  authorizeUrl(p: { state: string; redirectUri: string }): string {
    const query = new URLSearchParams({
      appid: this.settings.appId,
      redirect_uri: p.redirectUri,
      response_type: 'code',
      scope: 'snsapi_login',
      state: p.state,
    });
    return `${this.base(this.settings.openBaseUrl)}/connect/qrconnect?${query}#wechat_redirect`;
  }

  async exchange(code: string): Promise<WechatIdentity> {
    const token = await this.call<AccessTokenAnswer>('/sns/oauth2/access_token', {
      appid: this.settings.appId,
      secret: this.settings.appSecret,
      code,
      grant_type: 'authorization_code',
    });
    if (!token.access_token || !token.openid) throw new Error('wechat: access_token answer without token');
    const info = await this.call<UserInfoAnswer>('/sns/userinfo', {
      access_token: token.access_token,
      openid: token.openid,
      lang: 'zh_CN',
    });
    return {
      openid: token.openid,
      unionid: info.unionid ?? token.unionid,
      nickname: info.nickname?.trim() || '微信用户',
    };
  }

  private async call<T extends WechatErrorAnswer>(path: string, params: Record<string, string>): Promise<T> {
    const res = await fetch(`${this.base(this.settings.apiBaseUrl)}${path}?${new URLSearchParams(params)}`, {
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`wechat ${path}: HTTP ${res.status}`);
    // WeChat answers JSON, sometimes labelled text/plain.
    const answer = JSON.parse(await res.text()) as T;
    if (answer.errcode === 40163) throw new WechatCodeUsedError();
    if (answer.errcode) throw new Error(`wechat ${path}: ${answer.errcode} ${answer.errmsg ?? ''}`.trim());
    return answer;
  }

  private base(url: string): string {
    return url.replace(/\/$/, '');
  }
}
