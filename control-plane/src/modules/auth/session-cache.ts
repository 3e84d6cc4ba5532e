// Who a session token belongs to, remembered for a short while so that most authenticated
// requests make no query for it. An entry is trusted for `ttlMs` at most (the safety net), never
// past its session's expiry, and only while the revocation listener is connected: every replica
// drops a user's entries the moment any replica announces a revocation (sign-out, password reset,
// account disabled, rights changed: SessionRevocations), and while the listener is down nothing
// is remembered or trusted at all.
import type { AuthUser } from '../../framework/auth.js';

interface Entry {
  user: AuthUser;
  /** Trusted until this time (ms): the earlier of the TTL and the session's expiry. */
  until: number;
}

/** The most tokens remembered; the oldest entry goes first beyond it. */
const DEFAULT_MAX_ENTRIES = 50_000;

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<number, Set<string>>();
  /** Moves on every drop: a lookup that began before a drop does not remember what it read. */
  private epoch = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The user of a remembered, still trusted token. */
  get(tokenHash: string, now: number): AuthUser | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.until > now) return entry.user;
    this.remove(tokenHash, entry.user.id);
    return undefined;
  }

  /** Taken before the database is read; `put` remembers nothing if a drop happened since. */
  ticket(): number {
    return this.epoch;
  }

  put(ticket: number, tokenHash: string, user: AuthUser, sessionExpiresAt: number, now: number): void {
    if (ticket !== this.epoch || this.ttlMs <= 0) return;
    const until = Math.min(now + this.ttlMs, sessionExpiresAt);
    if (until <= now) return;
    const old = this.entries.get(tokenHash);
    if (old) this.remove(tokenHash, old.user.id);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.entries().next().value;
      if (!oldest) break;
      this.remove(oldest[0], oldest[1].user.id);
    }
    this.entries.set(tokenHash, { user, until });
    let tokens = this.byUser.get(user.id);
    if (!tokens) {
      tokens = new Set();
      this.byUser.set(user.id, tokens);
    }
    tokens.add(tokenHash);
  }

  /** Forgets every token of the user. */
  dropUser(userId: number): void {
    this.epoch++;
    const tokens = this.byUser.get(userId);
    if (!tokens) return;
    for (const tokenHash of tokens) this.entries.delete(tokenHash);
    this.byUser.delete(userId);
  }

  /** Forgets everything (the listener connected or lost its connection). */
  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.byUser.clear();
  }

  private remove(tokenHash: string, userId: number): void {
    this.entries.delete(tokenHash);
    const tokens = this.byUser.get(userId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.byUser.delete(userId);
  }
}
