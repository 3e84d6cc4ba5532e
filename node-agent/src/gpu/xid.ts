// Xid events: the NVIDIA driver's error reports in the kernel log, e.g.
//   NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus.
//   NVRM: Xid (PCI:0000:3b:00): 48, pid=1234, name=python, An uncorrectable double bit error ...
// A critical Xid marks its GPU unhealthy for the life of the agent (the GPU needs an operator:
// reset, reboot or repair). Application Xids (a program's own fault) are ignored, as the NVIDIA
// device plugin does. The kernel names the GPU by PCI address; the probe maps it by bus id.
import { constants, promises as fs } from 'node:fs';
import { errorMessage } from '../errors.js';
import { normalizePciBusId } from './nvidia-smi-parse.js';

/** Xids caused by the application, not the GPU (NVIDIA k8s-device-plugin's applicationErrorXids). */
export const DEFAULT_IGNORED_XIDS: readonly number[] = [13, 31, 43, 45, 68, 109];

/** Short English names of the usual hardware Xids (NVIDIA's Xid catalogue). */
const XID_NAMES: Record<number, string> = {
  48: 'Double Bit ECC Error',
  61: 'Internal micro-controller breakpoint/warning',
  62: 'Internal micro-controller halt',
  63: 'ECC page retirement or row remapping recording event',
  64: 'ECC page retirement or row remapper recording failure',
  74: 'NVLink Error',
  79: 'GPU has fallen off the bus',
  92: 'High single-bit ECC error rate',
  94: 'Contained ECC error',
  95: 'Uncontained ECC error',
  119: 'GSP RPC timeout',
  120: 'GSP error',
  121: 'C2C link corrected error',
  140: 'Unrecovered ECC error',
};

export interface XidEvent {
  code: number;
  /** The GPU's PCI address, normalised (`0000:3b:00`, see normalizePciBusId). */
  pciBusId: string;
  /** What the driver said after the code (pid and name left out). */
  message: string;
}

/** `<prio>,<seq>,<usec>,<flags>;text` (a /dev/kmsg record) or a dmesg line: the text. */
function messageText(line: string): string {
  const kmsg = /^\d+,\d+,\d+,[^;]*;(.*)$/s.exec(line);
  const body = kmsg ? (kmsg[1] as string) : line;
  // /dev/kmsg escapes non-printable bytes (a newline in a record reads \x0a); dictionary
  // lines (" SUBSYSTEM=...") follow the record.
  return body.split('\n')[0]!.replace(/\\x0a/g, '\n');
}

/** The Xid of one kernel log line, or undefined when the line is not one. */
export function parseXidLine(line: string): XidEvent | undefined {
  const text = messageText(line);
  const xid = /NVRM: Xid \((?:PCI:)?([0-9a-fA-F:.]+)\): (\d+),\s*(.*)$/m.exec(text);
  if (xid) {
    const pciBusId = normalizePciBusId(xid[1] as string);
    if (!pciBusId) return undefined;
    const message = (xid[3] as string)
      .replace(/\bpid=[^,]*,\s*/, '')
      .replace(/\bname=[^,]*,\s*/, '')
      .replace(/\.\s*$/, '')
      .trim();
    return { code: Number(xid[2]), pciBusId, message };
  }
  // Newer drivers also report a lost GPU without an Xid line:
  //   NVRM: The NVIDIA GPU 0000:b3:00.0 ... has fallen off the bus and is not responding ...
  const lost = /NVRM: The NVIDIA GPU ([0-9a-fA-F:.]+)[\s\S]*fallen off the bus/.exec(text);
  if (lost) {
    const pciBusId = normalizePciBusId(lost[1] as string);
    if (pciBusId) return { code: 79, pciBusId, message: XID_NAMES[79] as string };
  }
  return undefined;
}

/** The health problem a critical Xid gives its GPU (Chinese, with the English detail). */
export function xidProblem(event: XidEvent): string {
  let detail = XID_NAMES[event.code] ?? event.message;
  if (detail.length > 120) detail = `${detail.slice(0, 117)}...`;
  return `GPU 发生 Xid ${event.code} 错误 (${detail || `Xid ${event.code}`}), 需要管理员处理`;
}

export interface XidMonitorOptions {
  /** Kernel log lines; the real one is kmsgLines(). */
  source: AsyncIterable<string>;
  /** Xids that do not make a GPU unhealthy; DEFAULT_IGNORED_XIDS when absent. */
  ignoredXids?: readonly number[];
  log?: (line: string) => void;
}

/**
 * Watches the kernel log and remembers, per GPU (PCI bus id), the first critical Xid. Sticky:
 * nothing clears it but an agent restart (after the operator fixed the GPU).
 */
export class XidMonitor {
  private readonly problems = new Map<string, string>();
  private readonly ignored: ReadonlySet<number>;
  private readonly log: (line: string) => void;
  private closed = false;
  /** Settles when the source has ended (tests wait on it). */
  readonly done: Promise<void>;

  constructor(private readonly options: XidMonitorOptions) {
    this.ignored = new Set(options.ignoredXids ?? DEFAULT_IGNORED_XIDS);
    this.log = options.log ?? (() => {});
    this.done = this.consume();
  }

  private async consume(): Promise<void> {
    try {
      for await (const line of this.options.source) {
        if (this.closed) break;
        this.handle(line);
      }
    } catch (err) {
      this.log(`Xid 监控已停止 (kernel log read failed: ${errorMessage(err)})`);
    }
  }

  /** Takes one kernel log line (exposed for tests and other sources). */
  handle(line: string): void {
    const event = parseXidLine(line);
    if (!event || this.ignored.has(event.code)) return;
    if (this.problems.has(event.pciBusId)) return; // the first critical Xid tells the story
    const problem = xidProblem(event);
    this.problems.set(event.pciBusId, problem);
    this.log(`GPU ${event.pciBusId}: ${problem} [${event.message}]`);
  }

  /** The sticky problem of the GPU at this PCI address (any form), '' when none. */
  problemFor(pciBusId: string): string {
    const key = normalizePciBusId(pciBusId);
    return key ? (this.problems.get(key) ?? '') : '';
  }

  close(): void {
    this.closed = true;
  }
}

/** Waits ms (without keeping the process alive), or less when the signal aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms).unref();
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface KmsgOptions {
  path?: string;
  /** How often to look for new records once the backlog is read. */
  pollMs?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/**
 * New records of /dev/kmsg (one record per read), from now on: the backlog present at open is
 * read and dropped (Node has no lseek; reading it non-blocking to EAGAIN is the same as seeking
 * to the end). Non-blocking reads and a poll keep a thread-pool thread from waiting forever.
 * Ends quietly (with one log line) when /dev/kmsg cannot be opened: not root, no kmsg.
 */
export async function* kmsgLines(options: KmsgOptions = {}): AsyncGenerator<string> {
  const path = options.path ?? '/dev/kmsg';
  const pollMs = options.pollMs ?? 1000;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    options.log?.(`无法读取内核日志, 不监控 Xid 错误 (cannot open ${path}: ${errorMessage(err)})`);
    return;
  }
  const buffer = Buffer.alloc(16 * 1024);
  let backlog = true;
  try {
    while (!options.signal?.aborted) {
      let bytes: number;
      try {
        ({ bytesRead: bytes } = await handle.read(buffer, 0, buffer.length, null));
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (code === 'EAGAIN') {
          backlog = false;
          await sleep(pollMs, options.signal);
          continue;
        }
        if (code === 'EPIPE') continue; // records overwritten before we read them: go on
        throw err;
      }
      if (bytes === 0) {
        await sleep(pollMs, options.signal);
        continue;
      }
      if (!backlog) yield buffer.toString('utf8', 0, bytes);
    }
  } finally {
    await handle.close().catch(() => {});
  }
}
