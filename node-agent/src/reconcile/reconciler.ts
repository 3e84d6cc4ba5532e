// Periodic reconciliation (after Nomad's reconcile_dangling.go): every interval the agent lists
// the labelled containers and reports them on the WatchEvents streams, so the control plane can
// match its rows with what really runs. It reports, it never deletes. It runs only while Docker
// answers: an empty list from a failed call would read as "everything is gone". Failures are
// logged and the next round tries again.

import type { ManagedContainer } from '../containers/types.js';
import { errorMessage } from '../errors.js';

export interface ReconcileReport {
  timeUnixMs: number;
  containers: ManagedContainer[];
}

export type ReportListener = (report: ReconcileReport) => void;

export class Reconciler {
  private readonly listeners = new Set<ReportListener>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly listContainers: () => Promise<ManagedContainer[]>,
    private readonly intervalMs: number,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** One round; undefined when Docker could not be asked. */
  async report(): Promise<ReconcileReport | undefined> {
    try {
      return { timeUnixMs: Date.now(), containers: await this.listContainers() };
    } catch (err) {
      this.log(`reconcile skipped: ${errorMessage(err)}`);
      return undefined;
    }
  }

  /**
   * The new listener gets a report right away, then one every interval with everyone else. The
   * rounds start at a random point of the first interval: agents whose streams opened together
   * (a control plane that restarted, a fleet upgraded at once) would otherwise report together
   * every interval for as long as they run, a thousand reports in the same second.
   */
  subscribe(listener: ReportListener): () => void {
    this.listeners.add(listener);
    void this.report().then((report) => {
      if (report && this.listeners.has(listener)) listener(report);
    });
    if (!this.timer) {
      this.timer = setTimeout(
        () => {
          this.timer = setInterval(() => void this.broadcast(), this.intervalMs);
          this.timer.unref();
          void this.broadcast();
        },
        Math.floor(Math.random() * this.intervalMs),
      );
      this.timer.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  private async broadcast(): Promise<void> {
    const report = await this.report();
    if (!report) return;
    for (const listener of this.listeners) listener(report);
  }

  stop(): void {
    // clearTimeout ends the first round's timer and the interval alike.
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
