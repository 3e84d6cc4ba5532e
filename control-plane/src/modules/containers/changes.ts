// Tells waiters that a container's status or pull progress changed. A trigger on `containers`
// (migration 53) notifies the PostgreSQL channel container_changed with the container's id on
// every such update, whichever replica, job or provisioning made it; one connection of each
// control plane listens. The status API waits on it, so a console sees 运行中 the moment the
// node reports it instead of at its next poll.
import { EventEmitter } from 'node:events';
import pg from 'pg';

export const CHANGES_CHANNEL = 'container_changed';
const RECONNECT_MS = 1000;

type Log = (message: string, err?: unknown) => void;

/** Never EventEmitter's own 'error', whatever the id. */
const eventName = (containerId: string) => `container:${containerId}`;

export interface ChangeWatch {
  /** Resolves at the first change of the container after the watch began. */
  changed: Promise<void>;
  close(): void;
}

export class ContainerChanges {
  private client: pg.Client | undefined;
  private readonly events = new EventEmitter();
  private reconnect: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: Log,
  ) {
    this.events.setMaxListeners(0);
  }

  /** Listens from now on; a lost connection is made again (waiters re-read meanwhile). */
  async start(): Promise<void> {
    await this.connect();
  }

  /** Whether notifications arrive now (waiters still re-read on their own while not). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  watch(containerId: string): ChangeWatch {
    let notify = () => {};
    const changed = new Promise<void>((resolve) => {
      notify = resolve;
    });
    const listener = () => notify();
    this.events.on(eventName(containerId), listener);
    return { changed, close: () => this.events.off(eventName(containerId), listener) };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnect);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => {
      if (message.channel === CHANGES_CHANNEL && message.payload)
        this.events.emit(eventName(message.payload));
    });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      if (err) this.log('the container change listener lost its database connection', err);
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    try {
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = undefined;
      this.connect().catch((err) => {
        this.log('the container change listener could not reconnect', err);
        this.scheduleReconnect();
      });
    }, RECONNECT_MS);
    this.reconnect.unref();
  }
}
