import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type WechatPurpose = 'login' | 'bind';

export interface WechatState {
  purpose: WechatPurpose;
  /** The account to bind to (purpose bind). */
  userId: number | null;
}

const PURPOSE_CODES: Record<WechatPurpose, string> = { login: 'l', bind: 'b' };
export const STATE_TTL_SECONDS = 600;

/**
 * The OAuth `state`: purpose, account, expiry and a nonce, signed with a key derived from
 * SECRET_KEY. Stateless, so any replica can finish a login another one started; short enough for
 * WeChat's 128-byte limit.
 */
export class WechatStateSigner {
  private readonly key: Buffer;

  constructor(
    secretKey: Buffer,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.key = createHmac('sha256', secretKey).update('wechat-oauth-state').digest();
  }

  sign(state: WechatState, ttlSeconds = STATE_TTL_SECONDS): string {
    const expires = Math.floor(this.now().getTime() / 1000) + ttlSeconds;
    const body = [
      PURPOSE_CODES[state.purpose],
      String(state.userId ?? 0),
      String(expires),
      randomBytes(6).toString('base64url'),
    ].join('.');
    return `${body}.${this.mac(body)}`;
  }

  /** The state's content, or undefined when it is forged, malformed or expired. */
  verify(value: string): WechatState | undefined {
    const parts = value.split('.');
    if (parts.length !== 5) return undefined;
    const body = parts.slice(0, 4).join('.');
    const given = Buffer.from(parts[4] as string);
    const expected = Buffer.from(this.mac(body));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const [p, u, e] = parts;
    if (Number(e) * 1000 < this.now().getTime()) return undefined;
    const purpose = p === 'l' ? 'login' : p === 'b' ? 'bind' : undefined;
    if (!purpose) return undefined;
    const userId = Number(u);
    if (!Number.isSafeInteger(userId) || userId < 0) return undefined;
    if (purpose === 'bind' && userId === 0) return undefined;
    return { purpose, userId: userId === 0 ? null : userId };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, 22);
  }
}
