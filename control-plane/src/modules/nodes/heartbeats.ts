// Heartbeats of the whole fleet written together: each node's heartbeat waits for the next tick
// (HEARTBEAT_TICK_MS), and a tick writes every node that beat in one UPDATE … FROM unnest(…).
// Facts that change without mattering at once (when the node's containers were last reconciled,
// its disk space) ride along with the node's next heartbeat instead of writing the row again.
// A node's row is so written once per heartbeat interval, however many reports it sends.

/** How long a heartbeat waits for the others of its tick (its node's "last seen" is late by as much). */
export const HEARTBEAT_TICK_MS = 250;

/** What a heartbeat writes to its node's row. */
export interface HeartbeatWrite {
  id: number;
  at: Date;
  dockerAvailable: boolean;
  /** Set with the heartbeat; undefined = left as it is. */
  reconciledAt?: Date | undefined;
  hostInfo?: Record<string, unknown> | undefined;
}

/** Facts waiting for their node's next heartbeat. */
export type CarriedFacts = Pick<HeartbeatWrite, 'reconciledAt' | 'hostInfo'>;

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class HeartbeatBatcher {
  private pending = new Map<number, { write: HeartbeatWrite; waiters: Waiter[] }>();
  private readonly carried = new Map<number, CarriedFacts>();
  private timer: NodeJS.Timeout | undefined;
  /** The write under way: ticks are written one after the other, in order. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (writes: HeartbeatWrite[]) => Promise<void>,
    private readonly tickMs = HEARTBEAT_TICK_MS,
  ) {}

  /** Settles once the heartbeat is written (rejects when its tick's write failed). */
  beat(id: number, dockerAvailable: boolean, at: Date): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry = this.pending.get(id);
      const write: HeartbeatWrite = { id, at, dockerAvailable };
      // Two beats of one node in a tick: the later one is written, both wait for it.
      if (entry) {
        entry.write = write;
        entry.waiters.push({ resolve, reject });
      } else {
        this.pending.set(id, { write, waiters: [{ resolve, reject }] });
      }
      this.timer ??= setTimeout(() => void this.flush(), this.tickMs);
    });
  }

  /** Keeps facts for the node's next heartbeat (later ones replace earlier ones). */
  carry(id: number, facts: CarriedFacts): void {
    const before = this.carried.get(id) ?? {};
    this.carried.set(id, {
      reconciledAt: facts.reconciledAt ?? before.reconciledAt,
      hostInfo: facts.hostInfo ?? before.hostInfo,
    });
  }

  /** Forgets what was carried for the node (its row was written with newer facts). */
  drop(id: number, keys: (keyof CarriedFacts)[]): void {
    const facts = this.carried.get(id);
    if (!facts) return;
    for (const key of keys) delete facts[key];
    if (facts.reconciledAt === undefined && facts.hostInfo === undefined) this.carried.delete(id);
  }

  /** Writes what is pending now (the tick's timer does; a stop does too). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    if (batch.size === 0) return this.writing;
    const writes = [...batch.values()].map(({ write }) => {
      const carried = this.carried.get(write.id);
      this.carried.delete(write.id);
      return { ...write, ...carried };
    });
    const waiters = [...batch.values()].flatMap((e) => e.waiters);
    const run = this.writing.then(() => this.write(writes));
    this.writing = run.then(
      () => {
        for (const w of waiters) w.resolve();
      },
      (err: unknown) => {
        // The carried facts go back for the next beat (unless newer ones came meanwhile).
        for (const w of writes) {
          if (w.reconciledAt || w.hostInfo) this.carryBack(w);
        }
        for (const w of waiters) w.reject(err);
      },
    );
    return this.writing;
  }

  private carryBack(w: HeartbeatWrite): void {
    const now = this.carried.get(w.id) ?? {};
    this.carried.set(w.id, {
      reconciledAt: now.reconciledAt ?? w.reconciledAt,
      hostInfo: now.hostInfo ?? w.hostInfo,
    });
  }
}

/**
 * Items written together per tick (GPU samples of the whole fleet in one INSERT): `add` settles
 * once its tick is written.
 */
export class TickBatch<T> {
  private pending: { item: T; waiter: Waiter }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly tickMs = HEARTBEAT_TICK_MS,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, waiter: { resolve, reject } });
      this.timer ??= setTimeout(() => void this.flush(), this.tickMs);
    });
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return this.writing;
    const run = this.writing.then(() => this.write(batch.map((b) => b.item)));
    this.writing = run.then(
      () => {
        for (const b of batch) b.waiter.resolve();
      },
      (err: unknown) => {
        for (const b of batch) b.waiter.reject(err);
      },
    );
    return this.writing;
  }
}
