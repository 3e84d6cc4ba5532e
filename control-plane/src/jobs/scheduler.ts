// The one scheduler of the control plane's timers. Queues live in PostgreSQL (pg-boss, shared by
// every replica: a job runs once, on one replica, retried as its queue says); ticks are this
// replica's own (the node monitor's sync, asking for a settlement). Jobs register before start.
import PgBoss from 'pg-boss';

type Log = (message: string, err?: unknown) => void;

export interface QueueOptions {
  retryLimit: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
}

export interface Queue<T extends object> {
  /** At most one job per `singletonKey` within `singletonSeconds`. */
  send(data: T, options?: { singletonKey?: string; singletonSeconds?: number }): Promise<void>;
  /** At most one job per `seconds` for the whole queue, whichever replica asks. */
  sendThrottled(data: T, seconds: number): Promise<void>;
}

interface Registered {
  name: string;
  options: QueueOptions;
  handler: (data: never) => Promise<void>;
}

export class Scheduler {
  private boss: PgBoss | undefined;
  private readonly queues: Registered[] = [];
  private readonly ticks: Array<{ name: string; everyMs: number; run: () => Promise<void> }> = [];
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly d: { databaseUrl: string; log: Log; pollingIntervalSeconds: number }) {}

  queue<T extends object>(
    name: string,
    options: QueueOptions,
    handler: (data: T) => Promise<void>,
  ): Queue<T> {
    this.queues.push({ name, options, handler: handler as (data: never) => Promise<void> });
    return {
      send: async (data, opts = {}) => {
        await this.boss?.send(name, data, opts);
      },
      sendThrottled: async (data, seconds) => {
        await this.boss?.sendThrottled(name, data, {}, seconds);
      },
    };
  }

  /** Runs `run` now and every `everyMs` on this replica once started; a failure is logged. */
  every(name: string, everyMs: number, run: () => Promise<void>): void {
    this.ticks.push({ name, everyMs, run });
  }

  async start(): Promise<void> {
    if (this.queues.length > 0) {
      const boss = new PgBoss({ connectionString: this.d.databaseUrl, max: 3, schema: 'pgboss' });
      boss.on('error', (err) => this.d.log('job queue', err));
      await boss.start();
      const polling = { pollingIntervalSeconds: this.d.pollingIntervalSeconds };
      for (const q of this.queues) {
        await boss.createQueue(q.name, { name: q.name, ...q.options });
        await boss.work<object>(q.name, polling, async ([job]) => {
          if (job) await q.handler(job.data as never);
        });
      }
      this.boss = boss;
    }
    for (const tick of this.ticks) {
      const run = () => {
        tick.run().catch((err) => this.d.log(`${tick.name} failed`, err));
      };
      run();
      this.timers.push(setInterval(run, tick.everyMs));
    }
  }

  /** Jobs waiting in each queue (created or waiting for a retry), read now; none before start. */
  async queueDepths(): Promise<{ queue: string; depth: number }[]> {
    const boss = this.boss;
    if (!boss) return [];
    return Promise.all(
      this.queues.map(async (q) => ({ queue: q.name, depth: await boss.getQueueSize(q.name) })),
    );
  }

  async stop(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    const boss = this.boss;
    this.boss = undefined;
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
