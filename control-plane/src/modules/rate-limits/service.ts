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
  /**
   * Wrong passwords per account where a signed-in user confirms an action with it (revealing an
   * API key): a stolen session must not become an unlimited password oracle.
   */
  passwordConfirmFailuresPerUser: RateLimit;
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
  passwordConfirmFailuresPerUser: { limit: 10, windowSeconds: 15 * 60 },
};

interface Rule extends RateLimit {
  message: string;
}

function windowOf(rule: RateLimit, now: Date) {
  const ms = rule.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / ms) * ms;
  return {
    start: new Date(start),
    previous: new Date(start - ms),
    end: new Date(start + ms),
    // The previous window's share still inside the sliding window ending now.
    previousWeight: 1 - (now.getTime() - start) / ms,
    // A window's row is needed through the next window too (as its previous one).
    expires: new Date(start + 2 * ms),
  };
}

/**
 * Counters in PostgreSQL (not in memory), so replicas behind a load balancer count together.
 * A sliding window estimated from two fixed ones (the current window's count plus the previous
 * one's, weighted by how much of it the sliding window still covers, rounded up): no burst is let
 * through at a window boundary, and one row per key and window.
 */
export class RateLimiter {
  private lastCleanup = 0;

  constructor(
    private readonly repo: RateLimitsRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Events in the sliding window ending at `now` (an estimate, never below the current window's count). */
  private async events(rule: RateLimit, key: string, now: Date): Promise<number> {
    const window = windowOf(rule, now);
    const { current, previous } = await this.repo.counts(key, window.start, window.previous);
    return current + Math.ceil(previous * window.previousWeight - 1e-9);
  }

  /** Counts one event and refuses it (429) when it goes over the limit. */
  async hit(rule: Rule, key: string): Promise<void> {
    const now = this.now();
    const window = windowOf(rule, now);
    await this.repo.increment(key, window.start, window.expires);
    await this.cleanup(now);
    if ((await this.events(rule, key, now)) > rule.limit) throw this.refusal(rule, window.end, now);
  }

  /** Refuses (429) when the limit is already reached, without counting. */
  async check(rule: Rule, key: string): Promise<void> {
    const now = this.now();
    if ((await this.events(rule, key, now)) >= rule.limit)
      throw this.refusal(rule, windowOf(rule, now).end, now);
  }

  /** Whether the limit is already reached (no counting, no refusal). */
  async reached(rule: RateLimit, key: string): Promise<boolean> {
    return (await this.events(rule, key, this.now())) >= rule.limit;
  }

  /** Counts one event without refusing it (a failure that `check` will see next time). */
  async record(rule: Rule, key: string): Promise<void> {
    const window = windowOf(rule, this.now());
    await this.repo.increment(key, window.start, window.expires);
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
