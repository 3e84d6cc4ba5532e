// Replies kept in memory per key (a user) between changes, for reads every console page makes (a
// user's balance, their container list, the market's list). Triggers (migrations 59 and 70)
// announce every change of what a reply shows on a PostgreSQL channel, whichever replica, job or
// agent report made it, with the keys it concerns as the payload ("12,40"; "*" or "" for every
// key); one connection of each control plane listens, and an announcement drops those keys' replies.
//
// Across replicas: before a kept reply is served, this replica makes a round trip on its
// listening connection (`PgListener.sync`): PostgreSQL sends a listener the notifications it was
// signalled for before it answers, and a transaction signals the listeners before its commit is
// acknowledged, so every change committed before the request began (and so every change already
// acknowledged to anyone, through any replica) has dropped the reply by then. Requests arriving
// while a round trip is on its way share the next one, which leaves once the requests read in
// the same turn of the event loop have joined it. While the connection is down (and until it is
// back) nothing is kept: every request reads the database.
import { PgListener } from './listener.js';

/** The channels migration 70's triggers announce on (payload: users' ids, or "*"). */
export const REPLY_CHANNELS = {
  /** A user's balance or alert threshold (billing_accounts). */
  balance: 'balance_changed',
  /** What a user's container list shows (their containers, GPUs held, nodes, name). */
  containerList: 'container_list_changed',
  /**
   * What the market's list shows (products, a node's status or GPUs, a GPU rented or given back,
   * an image present on a node, the catalogue): migration 59, no payload (every key).
   */
  market: 'market_changed',
} as const;

/** How long a request waits for its barrier (round trip) before it reads the database instead. */
const BARRIER_TIMEOUT_MS = 1000;

/** At most this many keys are kept per cache (the oldest go first). */
const DEFAULT_MAX_KEYS = 20_000;

type Log = (message: string, err?: unknown) => void;

interface Barrier {
  /** Settles once the round trip came back, the connection went, or BARRIER_TIMEOUT_MS passed. */
  done: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
  /** One timer per barrier (not per waiting request). */
  timer: NodeJS.Timeout;
}

interface Subscriber {
  /** An announcement on the subscriber's channel (its payload). */
  changed(payload: string): void;
  /** Whatever was announced may have been missed (connected again, or lost): forget everything. */
  reset(): void;
}

/** One listening connection for several caches' channels, and the barrier they share. */
export class ChangeFeed {
  private readonly listener: PgListener;
  private readonly subscribers = new Map<string, Subscriber[]>();
  /** The barrier on its way, and the one that requests arriving meanwhile will wait for. */
  private inFlight: Barrier | undefined;
  private next: Barrier | undefined;
  /** Whether the next barrier leaves at the end of this turn of the event loop (setImmediate). */
  private sendScheduled = false;
  /** Barriers sent (for tests: requests arriving together share one). */
  barriers = 0;

  constructor(o: { databaseUrl: string; channels: string[]; name: string; log: Log }) {
    for (const channel of o.channels) this.subscribers.set(channel, []);
    this.listener = new PgListener({
      databaseUrl: o.databaseUrl,
      channels: o.channels,
      name: o.name,
      log: o.log,
      onNotification: (_client, message) => {
        for (const s of this.subscribers.get(message.channel) ?? []) s.changed(message.payload ?? '');
      },
      onConnected: () => this.resetAll(),
      onLost: () => {
        this.resetAll();
        const err = new Error(`${o.name} lost its connection`);
        for (const b of [this.inFlight, this.next]) b?.reject(err);
        this.inFlight = undefined;
        this.next = undefined;
      },
    });
  }

  subscribe(channel: string, subscriber: Subscriber): void {
    const list = this.subscribers.get(channel);
    if (!list) throw new Error(`${channel} is not one of this feed's channels`);
    list.push(subscriber);
  }

  /** Listens from now on; where it cannot yet, it tries again every second meanwhile. */
  async start(): Promise<void> {
    try {
      await this.listener.start();
    } catch (err) {
      this.listener.retryLater();
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.listener.close();
  }

  /** Whether announcements arrive now: replies are kept only then. */
  get listening(): boolean {
    return this.listener.listening;
  }

  /**
   * Resolves once every announcement committed before the call has been handled: a round trip
   * that left after the call on the listening connection came back. Rejects when the connection
   * goes or the round trip is not back BARRIER_TIMEOUT_MS after its first waiter.
   */
  barrier(): Promise<void> {
    if (!this.next) this.next = this.newBarrier();
    const mine = this.next;
    if (!this.inFlight) this.scheduleSend();
    return mine.done;
  }

  private resetAll(): void {
    for (const list of this.subscribers.values()) for (const s of list) s.reset();
  }

  private newBarrier(): Barrier {
    const b = {} as Barrier;
    b.done = new Promise<void>((resolve, reject) => {
      b.resolve = () => {
        clearTimeout(b.timer);
        resolve();
      };
      b.reject = (err) => {
        clearTimeout(b.timer);
        reject(err);
      };
    });
    // Its waiters read the database instead; the round trip itself stays on its way (a later one
    // is sent only once it came back or the connection went).
    b.timer = setTimeout(() => b.reject(new Error('the barrier timed out')), BARRIER_TIMEOUT_MS);
    b.timer.unref();
    // A waiter that gave up (a lost connection) leaves no unhandled rejection behind.
    b.done.catch(() => undefined);
    return b;
  }

  /**
   * Sends the next barrier once the requests already read (this turn of the event loop) have
   * joined it: under load, one round trip vouches for many requests instead of one each.
   */
  private scheduleSend(): void {
    if (this.sendScheduled) return;
    this.sendScheduled = true;
    setImmediate(() => {
      this.sendScheduled = false;
      if (!this.inFlight) this.sendNext();
    });
  }

  private sendNext(): void {
    const b = this.next;
    if (!b) return;
    this.next = undefined;
    this.inFlight = b;
    this.barriers++;
    const settled = (err?: unknown) => {
      if (this.inFlight !== b) return; // the connection went meanwhile: already rejected
      this.inFlight = undefined;
      if (err === undefined) b.resolve();
      else b.reject(err);
      if (this.next) this.scheduleSend();
    };
    this.listener.sync().then(
      () => settled(),
      (err: unknown) => settled(err ?? new Error('the barrier failed')),
    );
  }
}

/**
 * Replies per key, dropped by the announcements on `channel` that name their key (or every key).
 * A reply must depend only on what those announcements cover: nothing computed from the clock.
 * Callers share the kept value: they must not change it.
 */
export class KeyedChangeCache<V> {
  private readonly entries = new Map<string, Promise<V>>();
  /** Loads made (for tests: a reply served from memory loads nothing). */
  loads = 0;

  constructor(
    private readonly feed: ChangeFeed,
    channel: string,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {
    feed.subscribe(channel, {
      changed: (payload) => this.dropPayload(payload),
      reset: () => this.entries.clear(),
    });
  }

  /** Whether replies are kept now. */
  get listening(): boolean {
    return this.feed.listening;
  }

  /**
   * The reply for `key`: the kept one when no change of it was announced since it was read
   * (checked against everything committed before this call), else `load()`'s (kept for the next).
   */
  async get(key: string | number, load: () => Promise<V>): Promise<V> {
    if (!this.feed.listening) return load();
    try {
      await this.feed.barrier();
    } catch {
      // The connection went meanwhile, or answers too slowly to vouch for the reply: read the database.
      return load();
    }
    if (!this.feed.listening) return load();
    const k = String(key);
    const hit = this.entries.get(k);
    if (hit) return hit;
    this.loads++;
    // Kept before it resolves: an announcement meanwhile drops it (the load may predate the change).
    const value = load();
    this.entries.set(k, value);
    if (this.entries.size > this.maxKeys) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    value.catch(() => {
      if (this.entries.get(k) === value) this.entries.delete(k);
    });
    return value;
  }

  /** Forgets the replies of these keys (every reply for '*' or ''). */
  dropPayload(payload: string): void {
    if (payload === '' || payload === '*') {
      this.entries.clear();
      return;
    }
    for (const key of payload.split(',')) this.entries.delete(key.trim());
  }
}
