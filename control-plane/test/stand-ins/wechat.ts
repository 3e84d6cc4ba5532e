import { randomBytes } from 'node:crypto';
import { listen, type StandIn, sendJson } from './http.js';

interface Identity {
  openid: string;
  nickname: string;
  unionid: string;
}

/**
 * A stand-in for WeChat's open platform API (api.weixin.qq.com): sns/oauth2/access_token and
 * sns/userinfo with WeChat's error codes (40163 code used, 40029 invalid code, 40125 bad secret).
 */
export async function startWechatStandIn(app: { appId: string; appSecret: string }) {
  const codes = new Map<string, { identity: Identity; used: boolean }>();
  const tokens = new Map<string, Identity>();
  const server: StandIn = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const q = url.searchParams;
    if (url.pathname === '/sns/oauth2/access_token') {
      if (q.get('appid') !== app.appId)
        return sendJson(res, 200, { errcode: 40013, errmsg: 'invalid appid' });
      if (q.get('secret') !== app.appSecret)
        return sendJson(res, 200, { errcode: 40125, errmsg: 'invalid appsecret' });
      if (q.get('grant_type') !== 'authorization_code') {
        return sendJson(res, 200, { errcode: 40002, errmsg: 'invalid grant_type' });
      }
      const entry = codes.get(q.get('code') ?? '');
      if (!entry) return sendJson(res, 200, { errcode: 40029, errmsg: 'invalid code' });
      if (entry.used) return sendJson(res, 200, { errcode: 40163, errmsg: 'code been used' });
      entry.used = true;
      const token = randomBytes(16).toString('hex');
      tokens.set(token, entry.identity);
      return sendJson(res, 200, {
        access_token: token,
        expires_in: 7200,
        refresh_token: randomBytes(16).toString('hex'),
        openid: entry.identity.openid,
        scope: 'snsapi_login',
        unionid: entry.identity.unionid,
      });
    }
    if (url.pathname === '/sns/userinfo') {
      const identity = tokens.get(q.get('access_token') ?? '');
      if (!identity)
        return sendJson(res, 200, { errcode: 40001, errmsg: 'invalid credential, access_token is invalid' });
      if (q.get('openid') !== identity.openid)
        return sendJson(res, 200, { errcode: 40003, errmsg: 'invalid openid' });
      // WeChat labels this JSON text/plain.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(
        JSON.stringify({
          openid: identity.openid,
          nickname: identity.nickname,
          sex: 0,
          province: '',
          city: '',
          country: 'CN',
          headimgurl: '',
          privilege: [],
          unionid: identity.unionid,
        }),
      );
      return;
    }
    sendJson(res, 404, { errcode: -1, errmsg: 'not found' });
  });
  return {
    ...server,
    /** The user scans the QR code and confirms: WeChat issues a code for the redirect. */
    authorize(openid: string, nickname: string): string {
      const code = randomBytes(12).toString('hex');
      codes.set(code, { identity: { openid, nickname, unionid: `u_${openid}` }, used: false });
      return code;
    },
  };
}
