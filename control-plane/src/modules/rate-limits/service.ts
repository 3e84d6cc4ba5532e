import { tooManyRequests } from '../../framework/errors.js';
import type { RateLimitsRepository } from './repository.js';

/** At most `limit` events per `windowSeconds`; `message` may contain {minutes} or {seconds}. */
export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export interface RateLimitPolicy {
  /**
   * Failed sign-ins per account from one client address: over it, that address is locked out of
   * that account (429) while the owner still signs in from elsewhere.
   */
  loginFailuresPerUser: RateLimit;
  /**
   * Failed sign-ins per account from every address together (a distributed guess): over it each
   * further attempt is slowed down by `loginSlowdownMs`, never refused, so nobody can lock an
   * account they do not own.
   */
  loginFailuresPerAccount: RateLimit;
  /** The delay of each sign-in attempt once an account is over `loginFailuresPerAccount`. */
  loginSlowdownMs: number;
  /** Failed sign-ins per client address across accounts (one address guessing many names). */
  loginFailuresPerIp: RateLimit;
  /** Codes sent to one e-mail address or phone. */
  codesPerTarget: RateLimit;
  /** Codes requested from one client address. */
  codesPerIp: RateLimit;
  /** Wrong codes and reset attempts per account in the forgot-password flow. */
  resetAttemptsPerUser: RateLimit;
  /** Forgot-password username look-ups per client address. */
  resetLookupsPerIp: RateLimit;
  /** Minimum seconds between two codes to the same target (the spec's resend interval). */
  resendIntervalSeconds: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitPolicy = {
  loginFailuresPerUser: { limit: 10, windowSeconds: 15 * 60 },
  loginFailuresPerAccount: { limit: 100, windowSeconds: 15 * 60 },
  loginSlowdownMs: 2000,
  loginFailuresPerIp: { limit: 100, windowSeconds: 15 * 60 },
  codesPerTarget: { limit: 10, windowSeconds: 3600 },
  codesPerIp: { limit: 60, windowSeconds: 3600 },
  resetAttemptsPerUser: { limit: 10, windowSeconds: 3600 },
  resetLookupsPerIp: { limit: 60, windowSeconds: 10 * 60 },
  resendIntervalSeconds: 60,
};

interface Rule extends RateLimit {
  message: string;
}

function windowOf(rule: RateLimit, now: Date) {
  const ms = rule.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / ms) * ms;
  return { start: new Date(start), end: new Date(start + ms) };
}

/**
 * Counters in PostgreSQL (not in memory), so replicas behind a load balancer count together.
 * Fixed windows: cheap, one row per key and window, good enough against guessing and spamming.
 */
export class RateLimiter {
  private lastCleanup = 0;

  constructor(
    private readonly repo: RateLimitsRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Counts one event and refuses it (429) when it goes over the limit. */
  async hit(rule: Rule, key: string): Promise<void> {
    const now = this.now();
    const window = windowOf(rule, now);
    const count = await this.repo.increment(key, window.start, window.end);
    await this.cleanup(now);
    if (count > rule.limit) throw this.refusal(rule, window.end, now);
  }

  /** Refuses (429) when the limit is already reached, without counting. */
  async check(rule: Rule, key: string): Promise<void> {
    const now = this.now();
    const window = windowOf(rule, now);
    if ((await this.repo.count(key, window.start)) >= rule.limit) throw this.refusal(rule, window.end, now);
  }

  /** Whether the limit is already reached (no counting, no refusal). */
  async reached(rule: RateLimit, key: string): Promise<boolean> {
    const window = windowOf(rule, this.now());
    return (await this.repo.count(key, window.start)) >= rule.limit;
  }

  /** Counts one event without refusing it (a failure that `check` will see next time). */
  async record(rule: Rule, key: string): Promise<void> {
    const now = this.now();
    const window = windowOf(rule, now);
    await this.repo.increment(key, window.start, window.end);
  }

  async reset(key: string): Promise<void> {
    await this.repo.clear(key);
  }

  private refusal(rule: Rule, end: Date, now: Date) {
    const seconds = Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return tooManyRequests(
      rule.message.replace('{seconds}', String(seconds)).replace('{minutes}', String(minutes)),
    );
  }

  private async cleanup(now: Date): Promise<void> {
    // Old windows are useless; sweep them at most once a minute per replica.
    if (now.getTime() - this.lastCleanup < 60_000) return;
    this.lastCleanup = now.getTime();
    await this.repo.deleteExpired(now);
  }
}

export function rule(limit: RateLimit, message: string): Rule {
  return { ...limit, message };
}
