// Keeps every replica's SessionCache honest. One connection of each control plane LISTENs on
// session_revoked (repository.ts); a revocation committed by any replica drops the user's cached
// sessions everywhere. Each replica acknowledges the announcement's nonce on session_revoked_ack
// once it dropped them, and the replica that revoked answers only when as many replicas as were
// listening have (or after ECHO_TIMEOUT_MS, a replica that stopped answering): so a token revoked
// through one replica fails on every other from the revocation's answer on. While a replica's
// connection is down (and until it is back) its cache is emptied and not used: it reads the
// database for every request.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { LISTENER_NAME, REVOKED_ACK_CHANNEL, REVOKED_CHANNEL } from './repository.js';
import type { SessionCache } from './session-cache.js';

const RECONNECT_MS = 1000;
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
  private client: pg.Client | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly waiting = new Map<string, Waiter>();

  constructor(
    private readonly databaseUrl: string,
    private readonly cache: SessionCache,
    private readonly log: Log,
  ) {}

  /** Listens from now on; where it cannot yet, it tries again every second meanwhile. */
  async start(): Promise<void> {
    try {
      await this.connect();
    } catch (err) {
      this.log('session revocations are not heard (LISTEN failed): sessions are not cached', err);
      this.scheduleReconnect();
    }
  }

  /** Whether announcements arrive now: the cache is used only then. */
  get listening(): boolean {
    return this.client !== undefined;
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
    this.closed = true;
    clearTimeout(this.reconnect);
    const client = this.client;
    this.client = undefined;
    this.cache.clear();
    this.releaseWaiters();
    await client?.end().catch(() => undefined);
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

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      keepAlive: true,
      application_name: LISTENER_NAME,
    });
    client.on('notification', (message) => {
      if (message.channel === REVOKED_CHANNEL) this.heard(client, message.payload);
      else if (message.channel === REVOKED_ACK_CHANNEL) this.acknowledged(message.payload);
    });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.cache.clear();
      this.releaseWaiters();
      if (err) this.log('the session revocation listener lost its database connection', err);
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    try {
      await client.query(`LISTEN ${REVOKED_CHANNEL}; LISTEN ${REVOKED_ACK_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    // Whatever was revoked while no one listened: start from nothing.
    this.cache.clear();
    this.client = client;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = undefined;
      this.connect().catch((err) => {
        this.log('the session revocation listener could not reconnect', err);
        this.scheduleReconnect();
      });
    }, RECONNECT_MS);
    this.reconnect.unref();
  }
}
