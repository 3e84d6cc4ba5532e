// Keeps every replica's SessionCache honest. One connection of each control plane LISTENs on
// session_revoked (repository.ts); a revocation committed by any replica drops the user's cached
// sessions everywhere. Each replica acknowledges the announcement's nonce on session_revoked_ack
// once it dropped them, and the replica that revoked answers only when as many replicas as were
// listening have (or after ECHO_TIMEOUT_MS, a replica that stopped answering): so a token revoked
// through one replica fails on every other from the revocation's answer on. While a replica's
// connection is down (and until it is back) its cache is emptied and not used: it reads the
// database for every request.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { PgListener } from '../../db/listener.js';
import { LISTENER_NAME, REVOKED_ACK_CHANNEL, REVOKED_CHANNEL } from './repository.js';
import type { SessionCache } from './session-cache.js';

/** How long a revocation waits for the replicas' acknowledgements (then it answers anyway). */
const ECHO_TIMEOUT_MS = 2000;

type Log = (message: string, err?: unknown) => void;

interface Waiter {
  acks: number;
  /** How many acknowledgements to wait for; unknown until the announcement is committed. */
  needed: number | undefined;
  done(): void;
}

export class SessionRevocations {
  private readonly waiting = new Map<string, Waiter>();
  private readonly listener: PgListener;

  constructor(
    databaseUrl: string,
    private readonly cache: SessionCache,
    private readonly log: Log,
  ) {
    this.listener = new PgListener({
      databaseUrl,
      channels: [REVOKED_CHANNEL, REVOKED_ACK_CHANNEL],
      applicationName: LISTENER_NAME,
      name: 'the session revocation listener',
      log,
      onNotification: (client, message) => {
        if (message.channel === REVOKED_CHANNEL) this.heard(client, message.payload);
        else if (message.channel === REVOKED_ACK_CHANNEL) this.acknowledged(message.payload);
      },
      // Whatever was revoked while no one listened: start from nothing.
      onConnected: () => this.cache.clear(),
      onLost: () => {
        this.cache.clear();
        this.releaseWaiters();
      },
    });
  }

  /** Listens from now on; where it cannot yet, it tries again every second meanwhile. */
  async start(): Promise<void> {
    try {
      await this.listener.start();
    } catch (err) {
      this.log('session revocations are not heard (LISTEN failed): sessions are not cached', err);
      this.listener.retryLater();
    }
  }

  /** Whether announcements arrive now: the cache is used only then. */
  get listening(): boolean {
    return this.listener.listening;
  }

  /**
   * A nonce for an announcement, and `heard(listeners)`: resolves once that many replicas
   * acknowledged it (or soon anyway).
   */
  expect(): { nonce: string; heard(listeners: number): Promise<void> } {
    const nonce = randomBytes(8).toString('hex');
    if (!this.listening) return { nonce, heard: async () => {} };
    const waiter: Waiter = { acks: 0, needed: undefined, done: () => {} };
    const settled = new Promise<void>((resolve) => {
      const timer = setTimeout(() => waiter.done(), ECHO_TIMEOUT_MS);
      timer.unref();
      waiter.done = () => {
        clearTimeout(timer);
        this.waiting.delete(nonce);
        resolve();
      };
    });
    this.waiting.set(nonce, waiter);
    return {
      nonce,
      heard: (listeners) => {
        // This replica listens too: at least its own acknowledgement.
        waiter.needed = Math.max(1, listeners);
        if (waiter.acks >= waiter.needed) waiter.done();
        return settled;
      },
    };
  }

  async close(): Promise<void> {
    await this.listener.close();
  }

  private heard(client: pg.Client, payload: string | undefined): void {
    const [user, nonce] = (payload ?? '').split(' ');
    const userId = Number(user);
    // Whatever it is, nothing cached may outlive a message that cannot be read.
    if (Number.isInteger(userId) && userId > 0) this.cache.dropUser(userId);
    else this.cache.clear();
    if (nonce) client.query('select pg_notify($1, $2)', [REVOKED_ACK_CHANNEL, nonce]).catch(() => undefined);
  }

  private acknowledged(nonce: string | undefined): void {
    const waiter = nonce ? this.waiting.get(nonce) : undefined;
    if (!waiter) return;
    waiter.acks++;
    if (waiter.needed !== undefined && waiter.acks >= waiter.needed) waiter.done();
  }

  private releaseWaiters(): void {
    for (const waiter of [...this.waiting.values()]) waiter.done();
  }
}
