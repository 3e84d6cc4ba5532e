import type { WechatAuthorize, WechatCallbackAnswer } from '@gpucloud/control-plane/api';
import { api } from '../../../lib/api-client';

export function getWechatLoginUrl() {
  return api.get<WechatAuthorize>('/api/auth/wechat/login', { anonymous: true });
}

export function getWechatBindUrl() {
  return api.get<WechatAuthorize>('/api/user/bind-wechat');
}

/** Finishes the flow; a binding needs the session (the state names the account). */
export function completeWechat(input: { code: string; state: string }) {
  return api.post<WechatCallbackAnswer>('/api/auth/wechat/callback', input);
}

export function authorizeSandboxWechat(input: { nickname: string; state: string }) {
  return api.post<{ code: string }>('/api/auth/wechat/sandbox/authorize', input, { anonymous: true });
}
