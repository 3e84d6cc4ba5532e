import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Authenticator, AuthUser } from '../../framework/auth.js';
import { forbidden, unauthorized } from '../../framework/errors.js';
import { newToken } from '../../framework/ids.js';
import { type RateLimiter, type RateLimitPolicy, rule } from '../rate-limits/service.js';
import type { User } from '../users/model.js';
import { hashPassword, verifyPassword } from '../users/passwords.js';
import type { UsersService } from '../users/service.js';
import type { VerificationService } from '../verification/service.js';
import type { AuthReply } from './contract.js';
import type { SessionsRepository } from './repository.js';
import type { SessionRevocations } from './revocations.js';
import type { SessionCache } from './session-cache.js';

/** The session a sign-in answers (the shape lives in contract.ts). */
export type LoginResult = AuthReply;

export interface AuthDeps {
  sessions: SessionsRepository;
  users: UsersService;
  verification: VerificationService;
  limiter: RateLimiter;
  limits: RateLimitPolicy;
  sessionTtlHours: number;
  /**
   * Who recent tokens belong to, used only while `revocations` listens (every replica hears a
   * revocation at once): without them every request reads its session and its user.
   */
  cache?: { sessions: SessionCache; revocations: SessionRevocations };
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const MSG_LOGIN_LIMIT = '登录失败次数过多，请{minutes}分钟后再试';
export const MSG_DISABLED = '账号已被禁用，请联系客服';

/**
 * A sign-in for an unknown username verifies against this argon2id hash (same parameters as real
 * ones), so it takes as long as a wrong password and the timing tells no one which names exist.
 */
let dummyHash: Promise<string> | undefined;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(18).toString('base64'));
  return dummyHash;
}

export class AuthService implements Authenticator {
  constructor(private readonly d: AuthDeps) {}

  /** Sends the registration code to the e-mail address (the console counts down 600 s). */
  sendRegisterCode(email: string, ip: string) {
    return this.d.verification.issue({ purpose: 'register', channel: 'email', target: email, ip });
  }

  async register(params: {
    username: string;
    password: string;
    email: string;
    emailVerifyCode: string;
  }): Promise<LoginResult> {
    // A taken name is refused before the code is used up, so the user can pick another name.
    await this.d.users.assertUsernameFree(params.username);
    await this.d.verification.consume({
      purpose: 'register',
      target: params.email,
      code: params.emailVerifyCode,
    });
    const user = await this.d.users.create({
      username: params.username,
      password: params.password,
      email: params.email,
      emailVerified: true,
    });
    return this.sessionFor(user);
  }

  /**
   * Failures count per account and address (10 in 15 min lock that address out of that account
   * only), per address across accounts (100 lock the address) and per account from everywhere
   * (100 slow each attempt down, never lock): a guesser cannot lock the owner out.
   */
  async login(params: { username: string; password: string; ip: string }): Promise<LoginResult> {
    const name = params.username.toLowerCase();
    const pairKey = `login:user-ip:${name}:${params.ip}`;
    const accountKey = `login:user:${name}`;
    const ipKey = `login:ip:${params.ip}`;
    const perPair = rule(this.d.limits.loginFailuresPerUser, MSG_LOGIN_LIMIT);
    const perAccount = rule(this.d.limits.loginFailuresPerAccount, MSG_LOGIN_LIMIT);
    const perIp = rule(this.d.limits.loginFailuresPerIp, MSG_LOGIN_LIMIT);
    await this.d.limiter.check(perPair, pairKey);
    await this.d.limiter.check(perIp, ipKey);
    if (await this.d.limiter.reached(perAccount, accountKey)) await sleep(this.d.limits.loginSlowdownMs);
    const user = await this.d.users.findByUsername(params.username);
    // Unknown names verify against a dummy hash: as slow as a wrong password.
    const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), params.password);
    if (!user || !ok) {
      await this.d.limiter.record(perPair, pairKey);
      await this.d.limiter.record(perAccount, accountKey);
      await this.d.limiter.record(perIp, ipKey);
      throw unauthorized('用户名或密码错误', 'BAD_CREDENTIALS');
    }
    await this.d.limiter.reset(pairKey);
    return this.sessionFor(user);
  }

  /** A new session for a user who proved who they are (password, WeChat). */
  async sessionFor(user: User): Promise<LoginResult> {
    if (user.disabled) throw forbidden(MSG_DISABLED, 'USER_DISABLED');
    const token = newToken();
    const expiresAt = new Date(Date.now() + this.d.sessionTtlHours * 3600_000);
    await this.d.sessions.insert(user.id, hashToken(token), expiresAt);
    await this.d.users.recordLogin(user.id);
    return { token, username: user.username, nickname: user.nickname, is_admin: user.is_admin };
  }

  /** Ends this session, on every replica before it answers. */
  async logout(token: string, userId: number): Promise<void> {
    await this.announced(userId, (nonce) =>
      this.d.sessions.revoke(hashToken(token), new Date(), userId, nonce),
    );
  }

  /** Ends every session of the user (password reset, account disabled). */
  async revokeAll(userId: number): Promise<void> {
    await this.announced(userId, (nonce) => this.d.sessions.revokeAllForUser(userId, new Date(), nonce));
  }

  /**
   * What sessions carry of the user changed (disabled, admin rights, password, nickname): every
   * replica reads them again from now on.
   */
  async userChanged(userId: number): Promise<void> {
    await this.announced(userId, (nonce) => this.d.sessions.announce(userId, nonce));
  }

  /**
   * The user of a session this process remembers (see SessionCache), without reading the
   * database; undefined when it does not (authenticate() then reads it).
   */
  rememberedUser(token: string): AuthUser | undefined {
    const cache = this.d.cache?.revocations.listening ? this.d.cache.sessions : undefined;
    return cache?.get(hashToken(token), Date.now());
  }

  async authenticate(token: string): Promise<AuthUser | undefined> {
    const tokenHash = hashToken(token);
    const cache = this.d.cache?.revocations.listening ? this.d.cache.sessions : undefined;
    const now = Date.now();
    const cached = cache?.get(tokenHash, now);
    if (cached) return cached;
    const ticket = cache?.ticket();
    const session = await this.d.sessions.findActive(tokenHash, new Date(now));
    if (!session) return undefined;
    const user = await this.d.users.findById(session.user_id);
    if (!user || user.disabled) return undefined;
    const authUser = {
      id: user.id,
      username: user.username,
      nickname: user.nickname,
      isAdmin: user.is_admin,
    };
    if (cache && ticket !== undefined)
      cache.put(ticket, tokenHash, authUser, session.expires_at.getTime(), now);
    return authUser;
  }

  /**
   * Runs a change that announces itself on session_revoked (`write` gets the nonce, answers how
   * many replicas listen) and answers once they all acknowledged it (SessionRevocations). This
   * replica's cache forgets the user before and after the write (a lookup racing it remembers
   * nothing).
   */
  private async announced(userId: number, write: (nonce: string) => Promise<number>): Promise<void> {
    const cache = this.d.cache;
    if (!cache) {
      await write('-');
      return;
    }
    cache.sessions.dropUser(userId);
    const { nonce, heard } = cache.revocations.expect();
    let listeners = 0;
    try {
      listeners = await write(nonce);
    } finally {
      cache.sessions.dropUser(userId);
    }
    await heard(listeners);
  }
}
