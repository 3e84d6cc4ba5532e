import { badRequest, forbidden, notFound } from '../../framework/errors.js';
import type { Channel } from '../messages/service.js';
import { type RateLimiter, type RateLimitPolicy, rule } from '../rate-limits/service.js';
import type { User } from '../users/model.js';
import type { UsersService } from '../users/service.js';
import type { VerificationService } from '../verification/service.js';
import type { ResetContactsReply } from './contract.js';
import { maskEmail, maskPhone } from './masks.js';
import { MSG_DISABLED } from './service.js';

export type ResetMethod = 'phone' | 'email';

export interface ResetDeps {
  users: UsersService;
  verification: VerificationService;
  limiter: RateLimiter;
  limits: RateLimitPolicy;
  /** Ends the user's sessions once the password changed. */
  revokeSessions(userId: number): Promise<void>;
}

const MSG_TOO_MANY = '尝试次数过多，请{minutes}分钟后再试';

/** Where a reset code can go: only verified contacts (a mistyped, unverified one must not receive it). */
function contacts(user: User): { phone: string | null; email: string | null } {
  return {
    phone: user.is_phone_verified && user.phone ? user.phone : null,
    email: user.is_email_verified && user.email ? user.email : null,
  };
}

/** The forgot-password wizard: username → method → code → new password. */
export class PasswordResetService {
  constructor(private readonly d: ResetDeps) {}

  async checkUsername(username: string, ip: string): Promise<ResetContactsReply> {
    await this.d.limiter.hit(
      rule(this.d.limits.resetLookupsPerIp, '请求过于频繁，请{minutes}分钟后再试'),
      `reset:lookup:${ip}`,
    );
    const user = await this.account(username);
    const { phone, email } = contacts(user);
    if (!phone && !email) {
      throw badRequest('该账号未绑定已验证的手机号或邮箱，无法找回密码，请联系客服', 'NO_RECOVERY_CONTACT');
    }
    return {
      username: user.username,
      phone: phone ? maskPhone(phone) : null,
      email: email ? maskEmail(email) : null,
    };
  }

  async sendCode(username: string, method: ResetMethod, ip: string) {
    const user = await this.account(username);
    const { phone, email } = contacts(user);
    const target = method === 'phone' ? phone : email;
    if (!target) {
      throw badRequest(
        method === 'phone' ? '该账号未绑定已验证的手机号' : '该账号未绑定已验证的邮箱',
        'NO_RECOVERY_CONTACT',
      );
    }
    const channel: Channel = method === 'phone' ? 'sms' : 'email';
    const sent = await this.d.verification.issue({
      purpose: 'reset_password',
      channel,
      target,
      userId: user.id,
      ip,
    });
    return { ok: true, target: method === 'phone' ? maskPhone(target) : maskEmail(target), ...sent };
  }

  /** Step 3: the code is right (it stays usable for step 4). */
  async verifyCode(username: string, code: string): Promise<{ ok: true }> {
    const user = await this.account(username);
    await this.guarded(user, () =>
      this.d.verification.check({ purpose: 'reset_password', userId: user.id, code }),
    );
    return { ok: true };
  }

  /** Step 4: uses the code up, sets the password and signs the account out everywhere. */
  async reset(username: string, code: string, password: string): Promise<{ ok: true }> {
    const user = await this.account(username);
    await this.guarded(user, () =>
      this.d.verification.consume({ purpose: 'reset_password', userId: user.id, code }),
    );
    await this.d.users.setPassword(user.id, password);
    await this.d.revokeSessions(user.id);
    return { ok: true };
  }

  private async account(username: string): Promise<User> {
    const user = await this.d.users.findByUsername(username);
    if (!user) throw notFound('用户不存在', 'USER_NOT_FOUND');
    if (user.disabled) throw forbidden(MSG_DISABLED, 'USER_DISABLED');
    return user;
  }

  /** Counts wrong codes per account on top of the per-code limit (new codes do not reset it). */
  private async guarded(user: User, attempt: () => Promise<unknown>): Promise<void> {
    const limit = rule(this.d.limits.resetAttemptsPerUser, MSG_TOO_MANY);
    const key = `reset:user:${user.id}`;
    await this.d.limiter.check(limit, key);
    try {
      await attempt();
    } catch (err) {
      await this.d.limiter.record(limit, key);
      throw err;
    }
  }
}
