import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { badRequest, tooManyRequests, unavailable } from '../../framework/errors.js';
import type { Channel, CodePurpose, MessagesService } from '../messages/service.js';
import { type RateLimiter, type RateLimitPolicy, rule } from '../rate-limits/service.js';
import type { CodeLookup, CodeRow, VerificationRepository } from './repository.js';

export const CODE_LENGTH = 6;
/** Wrong guesses a code survives; then it is dead and a new one must be requested. */
export const MAX_CODE_ATTEMPTS = 5;
/** E-mail codes live as long as the console's 600 s countdown; SMS codes 5 minutes. */
export const CODE_TTL_SECONDS: Record<Channel, number> = { email: 600, sms: 300 };

export const MSG_CODE_EXPIRED = '验证码已失效，请重新获取';
export const MSG_CODE_WRONG = '验证码错误';
export const MSG_CODE_LOCKED = '验证码错误次数过多，请重新获取';
export const MSG_DELIVERY_FAILED = '验证码发送失败，请稍后重试';

export interface IssueParams {
  purpose: CodePurpose;
  channel: Channel;
  /** The e-mail address or phone number the code goes to. */
  target: string;
  userId?: number | undefined;
  /** The requesting client's address (rate limits). */
  ip: string;
}

export interface VerifyParams extends CodeLookup {
  code: string;
}

/** Issues and checks one-time codes sent by e-mail or SMS. Codes are stored as keyed hashes only. */
export class VerificationService {
  private readonly hashKey: Buffer;

  constructor(
    private readonly repo: VerificationRepository,
    private readonly messages: MessagesService,
    private readonly limiter: RateLimiter,
    private readonly policy: RateLimitPolicy,
    secretKey: Buffer,
    private readonly log: (message: string, err?: unknown) => void,
    private readonly now: () => Date = () => new Date(),
  ) {
    // A plain hash of a 6-digit code is reversed in a millisecond; a keyed one needs SECRET_KEY.
    this.hashKey = createHmac('sha256', secretKey).update('verification-codes').digest();
  }

  async issue(p: IssueParams): Promise<{ expires_in: number }> {
    // A resend inside the interval is refused before it counts against the hourly limits.
    this.assertResendAllowed(await this.repo.latestCreatedAt(p.purpose, p.target));
    await this.limiter.hit(
      rule(this.policy.codesPerIp, '验证码请求过于频繁，请{minutes}分钟后再试'),
      `code:ip:${p.ip}`,
    );
    await this.limiter.hit(
      rule(this.policy.codesPerTarget, '验证码发送次数过多，请{minutes}分钟后再试'),
      `code:target:${p.channel}:${p.target}`,
    );
    const ttl = CODE_TTL_SECONDS[p.channel];
    const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
    const now = this.now();
    const id = await this.repo.withTargetLock(`code:${p.purpose}:${p.target}`, async (trx) => {
      // Checked again under the lock: two replicas may both have passed the first check.
      this.assertResendAllowed(await this.repo.latestCreatedAt(p.purpose, p.target, trx));
      // An account's newer code replaces its older ones (whatever address they went to).
      const open =
        p.userId === undefined
          ? { purpose: p.purpose, target: p.target }
          : { purpose: p.purpose, userId: p.userId };
      await this.repo.retireOpen(open, now, trx);
      return this.repo.insert(
        {
          purpose: p.purpose,
          channel: p.channel,
          target: p.target,
          user_id: p.userId ?? null,
          code_hash: this.hash(p.purpose, p.target, code),
          expires_at: new Date(now.getTime() + ttl * 1000),
        },
        trx,
      );
    });
    try {
      await this.messages.sendCode({
        channel: p.channel,
        to: p.target,
        purpose: p.purpose,
        code,
        ttlMinutes: ttl / 60,
      });
    } catch (err) {
      // Not sent: forget it, so the resend interval does not block a retry.
      this.log(`sending a ${p.channel} code to ${p.target} failed`, err);
      await this.repo.delete(id);
      throw unavailable(MSG_DELIVERY_FAILED, 'CODE_DELIVERY_FAILED');
    }
    return { expires_in: ttl };
  }

  /** Checks the newest open code without using it up; a wrong guess counts. */
  async check(p: VerifyParams): Promise<CodeRow> {
    const row = await this.repo.latestOpen(p);
    if (!row || row.expires_at.getTime() <= this.now().getTime())
      throw badRequest(MSG_CODE_EXPIRED, 'CODE_EXPIRED');
    if (row.attempts >= MAX_CODE_ATTEMPTS) throw badRequest(MSG_CODE_LOCKED, 'CODE_LOCKED');
    const expected = Buffer.from(row.code_hash, 'hex');
    const given = Buffer.from(this.hash(row.purpose, row.target, p.code.trim()), 'hex');
    if (!timingSafeEqual(expected, given)) {
      await this.repo.addAttempt(row.id);
      throw badRequest(
        row.attempts + 1 >= MAX_CODE_ATTEMPTS ? MSG_CODE_LOCKED : MSG_CODE_WRONG,
        'CODE_INVALID',
      );
    }
    return row;
  }

  /** Checks the code and uses it up: a code works once. */
  async consume(p: VerifyParams): Promise<CodeRow> {
    const row = await this.check(p);
    if (!(await this.repo.consume(row.id, this.now()))) throw badRequest(MSG_CODE_EXPIRED, 'CODE_EXPIRED');
    return row;
  }

  private assertResendAllowed(last: Date | undefined): void {
    if (!last) return;
    const wait = this.policy.resendIntervalSeconds - (this.now().getTime() - last.getTime()) / 1000;
    if (wait > 0) {
      throw tooManyRequests(`验证码发送过于频繁，请${Math.ceil(wait)}秒后再试`, 'CODE_RESEND_TOO_SOON');
    }
  }

  private hash(purpose: string, target: string, code: string): string {
    return createHmac('sha256', this.hashKey).update(`${purpose}\n${target}\n${code}`).digest('hex');
  }
}
