// Tells waiters that a container's status or pull progress changed. A trigger on `containers`
// (migration 53) notifies the PostgreSQL channel container_changed with the container's id on
// every such update, whichever replica, job or provisioning made it; one connection of each
// control plane listens. The status API waits on it, so a console sees 运行中 the moment the
// node reports it instead of at its next poll.
import { EventEmitter } from 'node:events';
import { PgListener } from '../../db/listener.js';

export const CHANGES_CHANNEL = 'container_changed';
type Log = (message: string, err?: unknown) => void;

/** Never EventEmitter's own 'error', whatever the id. */
const eventName = (containerId: string) => `container:${containerId}`;

export interface ChangeWatch {
  /** Resolves at the first change of the container after the watch began. */
  changed: Promise<void>;
  close(): void;
}

export class ContainerChanges {
  private readonly events = new EventEmitter();
  private readonly listener: PgListener;

  constructor(databaseUrl: string, log: Log) {
    this.events.setMaxListeners(0);
    this.listener = new PgListener({
      databaseUrl,
      channels: [CHANGES_CHANNEL],
      name: 'the container change listener',
      log,
      onNotification: (_client, message) => {
        if (message.channel === CHANGES_CHANNEL && message.payload)
          this.events.emit(eventName(message.payload));
      },
    });
  }

  /** Listens from now on; a lost connection is made again (waiters re-read meanwhile). */
  async start(): Promise<void> {
    await this.listener.start();
  }

  /** Whether notifications arrive now (waiters still re-read on their own while not). */
  get listening(): boolean {
    return this.listener.listening;
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
    await this.listener.close();
  }
}
