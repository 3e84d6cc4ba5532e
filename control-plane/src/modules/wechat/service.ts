import type { AuthUser } from '../../framework/auth.js';
import {
  AppError,
  badRequest,
  forbidden,
  notFound,
  unauthorized,
  unavailable,
} from '../../framework/errors.js';
import type { LoginResult } from '../auth/service.js';
import type { User } from '../users/model.js';
import type { UsersService } from '../users/service.js';
import type { WechatAuthorizeReply, WechatCallbackReply } from './contract.js';
import { WechatCodeUsedError, type WechatIdentity, type WechatIdentityProvider } from './provider.js';
import { SandboxWechatProvider } from './sandbox.js';
import type { WechatPurpose, WechatStateSigner } from './state.js';

export const MSG_WECHAT_FAILED = '微信登录失败';
export const MSG_WECHAT_CODE_USED = '微信授权已过期，请重新扫码登录';
/** The console route WeChat sends the browser back to. */
export const CALLBACK_PATH = '/wechat-callback';

export type WechatCallbackResult = WechatCallbackReply;

export interface WechatDeps {
  provider: WechatIdentityProvider;
  signer: WechatStateSigner;
  users: UsersService;
  sessions: { sessionFor(user: User): Promise<LoginResult> };
  /** PUBLIC_URL; else the origin of the request that starts the flow. */
  publicUrl: string | undefined;
}

/** WeChat QR login and account binding (OAuth2 authorization code with a signed state). */
export class WechatService {
  constructor(private readonly d: WechatDeps) {}

  get sandbox(): boolean {
    return this.d.provider.kind === 'sandbox';
  }

  authorizeUrl(purpose: WechatPurpose, requestOrigin: string, actor?: AuthUser): WechatAuthorizeReply {
    if (this.d.provider.kind === 'disabled') throw unavailable('微信登录未开通', 'WECHAT_DISABLED');
    const origin = (this.d.publicUrl ?? requestOrigin).replace(/\/$/, '');
    const state = this.d.signer.sign({ purpose, userId: actor?.id ?? null });
    const authorize_url = this.d.provider.authorizeUrl({
      state,
      redirectUri: `${origin}${CALLBACK_PATH}`,
      consoleOrigin: origin,
    });
    return { authorize_url, state, sandbox: this.sandbox };
  }

  /** Finishes the flow the state names: signs in (creating the account on first use) or binds. */
  async complete(p: {
    code: string;
    state: string;
    actor: AuthUser | undefined;
  }): Promise<WechatCallbackResult> {
    const state = this.d.signer.verify(p.state);
    if (!state) throw badRequest('微信登录请求无效或已过期，请重新扫码', 'WECHAT_STATE_INVALID');
    if (state.purpose === 'bind') {
      if (!p.actor) throw unauthorized();
      if (p.actor.id !== state.userId) throw forbidden('微信绑定请求与当前账号不符', 'WECHAT_STATE_MISMATCH');
    }
    if (this.d.provider.kind === 'disabled') throw unavailable('微信登录未开通', 'WECHAT_DISABLED');
    const identity = await this.identify(p.code);
    if (state.purpose === 'bind') {
      const user = await this.d.users.bindWechat(state.userId as number, identity);
      return { purpose: 'bind', wechat_nickname: user.wechat_nickname ?? identity.nickname };
    }
    const existing = await this.d.users.findByWechatOpenid(identity.openid);
    const user = existing ?? (await this.d.users.createFromWechat(identity));
    const session = await this.d.sessions.sessionFor(user);
    return { purpose: 'login', created: !existing, ...session };
  }

  /** The sandbox identity page's "authorise": a one-time code for the named identity. */
  async sandboxAuthorize(p: { nickname: string; state: string }): Promise<{ code: string }> {
    const provider = this.d.provider;
    if (!(provider instanceof SandboxWechatProvider)) throw notFound('接口不存在', 'ROUTE_NOT_FOUND');
    if (!this.d.signer.verify(p.state)) {
      throw badRequest('微信登录请求无效或已过期，请重新扫码', 'WECHAT_STATE_INVALID');
    }
    return { code: await provider.issueCode(p.nickname) };
  }

  private async identify(code: string): Promise<WechatIdentity> {
    try {
      return await this.d.provider.exchange(code);
    } catch (err) {
      if (err instanceof WechatCodeUsedError) throw badRequest(MSG_WECHAT_CODE_USED, 'WECHAT_CODE_USED');
      // Logged with its cause by the error middleware.
      throw new AppError(502, 'WECHAT_LOGIN_FAILED', MSG_WECHAT_FAILED, { cause: err });
    }
  }
}
