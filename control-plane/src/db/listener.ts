// One PostgreSQL connection that LISTENs on some channels and, when it is lost, is made again
// every second until closed. Each control plane holds one per purpose (container changes, session
// revocations); what a notification means is its owner's business.
import pg from 'pg';

const RECONNECT_MS = 1000;

type Log = (message: string, err?: unknown) => void;

export interface ListenerOptions {
  databaseUrl: string;
  channels: string[];
  /** The connection's application_name (how other replicas count the listeners). */
  applicationName?: string;
  /** What listens, in log lines, e.g. "the container change listener". */
  name: string;
  log: Log;
  onNotification(client: pg.Client, message: pg.Notification): void;
  /** The connection listens (again); whatever was announced meanwhile was missed. */
  onConnected?(): void;
  /** The connection is lost or closed: nothing is heard until onConnected. */
  onLost?(): void;
}

export class PgListener {
  private client: pg.Client | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly o: ListenerOptions) {}

  /** Whether notifications arrive now. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /**
   * A round trip on the listening connection: resolves once every notification committed before
   * the call has been handled (`onNotification` ran). A committing transaction signals the
   * listening backends before its COMMIT is acknowledged, and a backend sends the notifications
   * it was signalled for ahead of the ReadyForQuery that ends this statement (PostgreSQL ≥ 13);
   * notifying transactions commit one at a time in queue order, so none committed earlier is
   * still unread. Reads nothing and writes nothing: no transaction id, no WAL, no queue entry.
   * Throws when not listening.
   */
  async sync(): Promise<void> {
    const client = this.client;
    if (!client) throw new Error(`${this.o.name} is not listening`);
    // A named statement: parsed once per connection, not once per round trip.
    await client.query({ name: 'gpucloud_sync', text: 'select 1' });
  }

  /** Listens from now on; throws when the first connection fails (see `retryLater`). */
  async start(): Promise<void> {
    await this.connect();
  }

  /** After a failed `start`: tries again every second meanwhile. */
  retryLater(): void {
    this.scheduleReconnect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnect);
    const client = this.client;
    this.client = undefined;
    this.o.onLost?.();
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.o.databaseUrl,
      keepAlive: true,
      ...(this.o.applicationName ? { application_name: this.o.applicationName } : {}),
    });
    client.on('notification', (message) => this.o.onNotification(client, message));
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.o.onLost?.();
      if (err) this.o.log(`${this.o.name} lost its database connection`, err);
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    try {
      await client.query(this.o.channels.map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.o.onConnected?.();
    this.client = client;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = undefined;
      this.connect().catch((err) => {
        this.o.log(`${this.o.name} could not reconnect`, err);
        this.scheduleReconnect();
      });
    }, RECONNECT_MS);
    this.reconnect.unref();
  }
}
