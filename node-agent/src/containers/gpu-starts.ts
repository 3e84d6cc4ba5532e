// Starting GPU containers without timing out. The toolkit sets a GPU container up while Docker
// starts it (nvidia-container-cli, or the CDI hooks), and with the driver busy initialising
// GPUs it gives up after a fixed time (libnvidia-container's RPC timeout is a hard-coded 10 s,
// NVIDIA/nvidia-container-toolkit#2102). A burst of starts on one node is what makes it slow,
// so the starts of one node are limited in number, and a start that failed with one of the
// toolkit's timeouts is tried once more; any other failure is final.
import { errorMessage } from '../errors.js';

/** At most `limit` tasks at a time; the others wait in order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`semaphore limit must be >= 1, got ${limit}`);
  }

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next task; `active` stays the same.
      if (next) next();
      else this.active -= 1;
    }
  }
}

/**
 * The toolkit's timeouts, as Docker reports a failed start (texts from the toolkit's issues):
 * - `nvidia-container-cli: initialization error: driver rpc error: timed out`
 *   (NVIDIA/nvidia-container-toolkit#202, #237: persistence mode off, driver slow to answer)
 * - `nvidia-container-cli: initialization error: driver error: timed out` (libnvidia-container
 *   before 1.10, NVIDIA/nvidia-docker#723, #1047)
 * - `nvidia-container-cli: initialization error: nvcgo rpc error: timed out`
 *   (NVIDIA/nvidia-container-toolkit#2102: node under load, a burst of GPU starts)
 * - `nvml error: timeout` (NVML_ERROR_TIMEOUT from the cli's detection)
 * - `error running hook … timed out` / `timeout` (an OCI or CDI hook that ran past its time)
 */
const TOOLKIT_TIMEOUTS: RegExp[] = [
  /nvidia-container-cli: initialization error: (driver rpc|driver|nvcgo rpc) error: timed out/i,
  /nvml error: timeout/i,
  /error running [\w-]*\s*hook[\s\S]*?(timed out|timeout)/i,
];

/** True for a start that failed only because the toolkit ran out of time. */
export function isToolkitTimeout(message: string): boolean {
  return TOOLKIT_TIMEOUTS.some((pattern) => pattern.test(message));
}

/**
 * Runs `start`; when it fails with a toolkit timeout, runs it once more (Docker leaves the
 * container created, so a second start is a plain retry). Other failures are thrown as they are.
 */
export async function retryToolkitTimeout<T>(
  start: () => Promise<T>,
  log?: (line: string) => void,
): Promise<T> {
  try {
    return await start();
  } catch (err) {
    const message = errorMessage(err);
    if (!isToolkitTimeout(message)) throw err;
    log?.(`GPU container start timed out in the NVIDIA Container Toolkit, trying once more: ${message}`);
    return await start();
  }
}
