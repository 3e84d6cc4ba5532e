import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestControlPlane } from '../../../test/harness.js';
import { startWechatStandIn } from '../../../test/stand-ins/wechat.js';
import type { RunningControlPlane } from '../../platform.js';

const app = { appId: 'wx1234567890abcdef', appSecret: 'wechat-app-secret' };
let wechat: Awaited<ReturnType<typeof startWechatStandIn>>;
let cp: RunningControlPlane;
let sandbox: RunningControlPlane;
let switchedOff: RunningControlPlane;

type Answer = { detail: string; code: string };
interface CallbackAnswer {
  purpose: 'login' | 'bind';
  token?: string;
  username?: string;
  nickname?: string | null;
  created?: boolean;
  wechat_nickname?: string;
}

beforeAll(async () => {
  wechat = await startWechatStandIn(app);
  cp = await startTestControlPlane({
    publicUrl: 'https://console.gpucloud.test',
    wechat: { ...app, openBaseUrl: 'https://open.weixin.qq.com', apiBaseUrl: wechat.url },
  });
  sandbox = await startTestControlPlane();
  switchedOff = await startTestControlPlane({ wechatSandbox: false });
});
afterAll(async () => {
  await cp?.close();
  await sandbox?.close();
  await switchedOff?.close();
  await wechat?.close();
});

async function startLogin(api: ApiClient): Promise<string> {
  const res = await api.request<{ authorize_url: string; state: string }>('GET', '/api/auth/wechat/login');
  expect(res.status).toBe(200);
  return res.body.state;
}

describe('WeChat QR login against the open platform', () => {
  it('the authorize URL is WeChat’s QR connect page with the app, the callback and a signed state', async () => {
    const res = await new ApiClient(cp.url).request<{ authorize_url: string; state: string }>(
      'GET',
      '/api/auth/wechat/login',
    );
    const url = new URL(res.body.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe('https://open.weixin.qq.com/connect/qrconnect');
    expect(url.hash).toBe('#wechat_redirect');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      appid: app.appId,
      redirect_uri: 'https://console.gpucloud.test/wechat-callback',
      response_type: 'code',
      scope: 'snsapi_login',
      state: res.body.state,
    });
    expect(res.body.state.length).toBeLessThanOrEqual(128);
  });

  it('a first scan creates an account, a second scan signs the same account in', async () => {
    const api = new ApiClient(cp.url);
    const first = await api.request<CallbackAnswer>('POST', '/api/auth/wechat/callback', {
      code: wechat.authorize('openid-lin', '林小明'),
      state: await startLogin(api),
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ purpose: 'login', created: true, nickname: '林小明' });
    expect(first.body.username).toMatch(/^wx_[0-9a-f]{12}$/);

    const second = await api.request<CallbackAnswer>('POST', '/api/auth/wechat/callback', {
      code: wechat.authorize('openid-lin', '林小明'),
      state: await startLogin(api),
    });
    expect(second.body).toMatchObject({ purpose: 'login', created: false, username: first.body.username });
    api.token = second.body.token;
    const info = await api.request<{ is_wechat_bound: boolean; wechat_nickname: string }>(
      'GET',
      '/api/user/info',
    );
    expect(info.body).toMatchObject({ is_wechat_bound: true, wechat_nickname: '林小明' });
  });

  it('a code used twice answers WECHAT_CODE_USED with the spec’s message; an unknown code 微信登录失败', async () => {
    const api = new ApiClient(cp.url);
    const code = wechat.authorize('openid-wang', '王五');
    expect(
      (await api.request('POST', '/api/auth/wechat/callback', { code, state: await startLogin(api) })).status,
    ).toBe(200);
    const reused = await api.request<Answer>('POST', '/api/auth/wechat/callback', {
      code,
      state: await startLogin(api),
    });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ detail: '微信授权已过期，请重新扫码登录', code: 'WECHAT_CODE_USED' });

    const unknown = await api.request<Answer>('POST', '/api/auth/wechat/callback', {
      code: 'made-up',
      state: await startLogin(api),
    });
    expect(unknown.status).toBe(502);
    expect(unknown.body).toMatchObject({ detail: '微信登录失败', code: 'WECHAT_LOGIN_FAILED' });
  });

  it('a forged or expired state is refused before WeChat is asked', async () => {
    const api = new ApiClient(cp.url);
    const state = await startLogin(api);
    const forged = `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`;
    const code = wechat.authorize('openid-forged', '张三');
    const res = await api.request<Answer>('POST', '/api/auth/wechat/callback', { code, state: forged });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('WECHAT_STATE_INVALID');
    // The code was not spent.
    expect((await api.request('POST', '/api/auth/wechat/callback', { code, state })).status).toBe(200);
  });

  it('a signed-in user binds WeChat from the profile; another account cannot take the same WeChat', async () => {
    const api = new ApiClient(cp.url);
    await api.register('binder');
    const bind = await api.request<{ authorize_url: string; state: string }>('GET', '/api/user/bind-wechat');
    expect(new URL(bind.body.authorize_url).searchParams.get('redirect_uri')).toBe(
      'https://console.gpucloud.test/wechat-callback',
    );
    const bound = await api.request<CallbackAnswer>('POST', '/api/auth/wechat/callback', {
      code: wechat.authorize('openid-binder', '绑定者'),
      state: bind.body.state,
    });
    expect(bound.body).toEqual({ purpose: 'bind', wechat_nickname: '绑定者' });
    const info = await api.request<{ is_wechat_bound: boolean }>('GET', '/api/user/info');
    expect(info.body.is_wechat_bound).toBe(true);

    // Now the WeChat login signs in as binder.
    const anon = new ApiClient(cp.url);
    const login = await anon.request<CallbackAnswer>('POST', '/api/auth/wechat/callback', {
      code: wechat.authorize('openid-binder', '绑定者'),
      state: await startLogin(anon),
    });
    expect(login.body).toMatchObject({ purpose: 'login', username: 'binder', created: false });

    const other = new ApiClient(cp.url);
    await other.register('other_binder');
    const state = (await other.request<{ state: string }>('GET', '/api/user/bind-wechat')).body.state;
    const taken = await other.request<Answer>('POST', '/api/auth/wechat/callback', {
      code: wechat.authorize('openid-binder', '绑定者'),
      state,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe('该微信已绑定其他账号');

    // A binding state is good only for the account that asked for it.
    const stolen = await anon.request<Answer>('POST', '/api/auth/wechat/callback', {
      code: wechat.authorize('openid-thief', '小偷'),
      state: bind.body.state,
    });
    expect(stolen.status).toBe(401);
  });
});

describe('WeChat sandbox (no credentials)', () => {
  it('the authorize URL is the console’s sandbox identity page, whose code works once', async () => {
    const api = new ApiClient(sandbox.url);
    const start = await api.request<{ authorize_url: string; state: string; sandbox: boolean }>(
      'GET',
      '/api/auth/wechat/login',
    );
    expect(start.body.sandbox).toBe(true);
    const url = new URL(start.body.authorize_url);
    expect(url.pathname).toBe('/wechat-sandbox');
    expect(url.searchParams.get('redirect_uri')).toBe(`${sandbox.url}/wechat-callback`);
    expect(url.searchParams.get('state')).toBe(start.body.state);

    const empty = await api.request<Answer>('POST', '/api/auth/wechat/sandbox/authorize', {
      nickname: ' ',
      state: start.body.state,
    });
    expect(empty.body.detail).toBe('请输入微信昵称');
    const badState = await api.request<Answer>('POST', '/api/auth/wechat/sandbox/authorize', {
      nickname: '沙箱用户',
      state: 'x.y',
    });
    expect(badState.status).toBe(400);

    const { code } = (
      await api.request<{ code: string }>('POST', '/api/auth/wechat/sandbox/authorize', {
        nickname: '沙箱用户',
        state: start.body.state,
      })
    ).body;
    const login = await api.request<CallbackAnswer>('POST', '/api/auth/wechat/callback', {
      code,
      state: start.body.state,
    });
    expect(login.body).toMatchObject({ purpose: 'login', created: true, nickname: '沙箱用户' });
    const reused = await api.request<Answer>('POST', '/api/auth/wechat/callback', {
      code,
      state: start.body.state,
    });
    expect(reused.body.code).toBe('WECHAT_CODE_USED');
  });

  it('the sandbox page does not exist when real WeChat credentials are configured', async () => {
    const api = new ApiClient(cp.url);
    const res = await api.request('POST', '/api/auth/wechat/sandbox/authorize', {
      nickname: '冒充者',
      state: await startLogin(api),
    });
    expect(res.status).toBe(404);
  });

  it('with WECHAT_SANDBOX=false and no credentials, WeChat login is switched off', async () => {
    const api = new ApiClient(switchedOff.url);
    const res = await api.request<Answer>('GET', '/api/auth/wechat/login');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: '微信登录未开通', code: 'WECHAT_DISABLED' });
    const sandboxCode = await api.request('POST', '/api/auth/wechat/sandbox/authorize', {
      nickname: 'x',
      state: 'a.b',
    });
    expect(sandboxCode.status).toBe(404);
  });
});
