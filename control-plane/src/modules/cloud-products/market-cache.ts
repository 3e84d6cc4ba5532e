// The market's list (every enabled product with its node's facts and free GPUs), kept in memory
// between changes. Triggers (migration 59) announce on the PostgreSQL channel market_changed
// every change of what the list shows (products, a node's status or GPUs, a GPU rented or given
// back, an image present on a node, the catalogue), whichever replica, job or agent report made
// it; one connection of each control plane listens, and any announcement drops the list.
//
// Across replicas: before a cached list is served, this replica sends itself a barrier on its
// listening connection and waits for it to come back. PostgreSQL delivers a listener's
// notifications in commit order, so every change committed before the request began (and so
// every change already acknowledged to anyone, through any replica) has dropped the list by
// then. While the connection is down (and until it is back) nothing is cached: every request
// reads the database.
import { randomBytes } from 'node:crypto';
import { PgListener } from '../../db/listener.js';

export const MARKET_CHANNEL = 'market_changed';
const BARRIER_CHANNEL = 'market_barrier';

/** How long a request waits for its barrier before it reads the database instead. */
const BARRIER_TIMEOUT_MS = 1000;

type Log = (message: string, err?: unknown) => void;

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface Barrier {
  nonce: string;
  done: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

export class MarketCache<T> {
  private readonly listener: PgListener;
  /** Bumped by every announcement and by every (re)connection or loss: a load started before is not kept. */
  private generation = 0;
  private cached: { generation: number; value: Promise<T> } | undefined;
  /** The barrier on its way, and the one that requests arriving meanwhile will wait for. */
  private inFlight: Barrier | undefined;
  private next: Barrier | undefined;
  /** Loads of the list (for tests: a served list that was cached loads nothing). */
  loads = 0;

  constructor(databaseUrl: string, log: Log) {
    this.listener = new PgListener({
      databaseUrl,
      channels: [MARKET_CHANNEL, BARRIER_CHANNEL],
      name: 'the market change listener',
      log,
      onNotification: (_client, message) => {
        if (message.channel === MARKET_CHANNEL) this.drop();
        else if (message.channel === BARRIER_CHANNEL) this.barrierHeard(message.payload);
      },
      // Whatever changed while no one listened: start from nothing.
      onConnected: () => this.drop(),
      onLost: () => {
        this.drop();
        const err = new Error('the market change listener lost its connection');
        for (const b of [this.inFlight, this.next]) b?.reject(err);
        this.inFlight = undefined;
        this.next = undefined;
      },
    });
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

  /** Whether announcements arrive now: the list is cached only then. */
  get listening(): boolean {
    return this.listener.listening;
  }

  /** Forgets the list (an announcement; also usable by a writer that knows it changed it). */
  drop(): void {
    this.generation++;
    this.cached = undefined;
  }

  /**
   * The list: the cached one when no change was announced since it was read (checked against
   * everything committed before this call), else `load()`'s (kept for the next callers).
   */
  async get(load: () => Promise<T>): Promise<T> {
    if (!this.listening) return load();
    try {
      await withTimeout(this.barrier(), BARRIER_TIMEOUT_MS);
    } catch {
      // The connection went meanwhile, or answers too slowly to vouch for the list: read the database.
      return load();
    }
    if (!this.listening) return load();
    const hit = this.cached;
    if (hit && hit.generation === this.generation) return hit.value;
    const generation = this.generation;
    this.loads++;
    const value = load();
    this.cached = { generation, value };
    value.catch(() => {
      if (this.cached?.value === value) this.cached = undefined;
    });
    return value;
  }

  /**
   * Resolves once every notification committed before the call has been handled: a barrier sent
   * after the call on the listening connection came back. Callers arriving while one is on its
   * way share the next one.
   */
  private barrier(): Promise<void> {
    if (!this.next) this.next = this.newBarrier();
    const mine = this.next;
    if (!this.inFlight) this.sendNext();
    return mine.done;
  }

  private newBarrier(): Barrier {
    const b = { nonce: randomBytes(8).toString('hex') } as Barrier;
    b.done = new Promise<void>((resolve, reject) => {
      b.resolve = resolve;
      b.reject = reject;
    });
    // A waiter that gave up (a lost connection) leaves no unhandled rejection behind.
    b.done.catch(() => undefined);
    return b;
  }

  private sendNext(): void {
    const b = this.next;
    if (!b) return;
    this.next = undefined;
    this.inFlight = b;
    this.listener.notify(BARRIER_CHANNEL, b.nonce).catch((err: unknown) => {
      if (this.inFlight === b) this.inFlight = undefined;
      b.reject(err);
      if (this.next) this.sendNext();
    });
  }

  private barrierHeard(nonce: string | undefined): void {
    const b = this.inFlight;
    if (!b || b.nonce !== nonce) return;
    this.inFlight = undefined;
    b.resolve();
    if (this.next) this.sendNext();
  }
}
