import type { OutputStream } from './output.js';

export interface Progress {
  /** The step and how far it is (0-100), or null when the step has no percentage. */
  update(label: string, percent: number | null): void;
  /** Ends the bar's line. */
  done(): void;
}

const BAR_WIDTH = 30;

/**
 * A progress bar redrawn in place on a terminal; elsewhere (a log, a pipe) one plain line per
 * change (`pulling image 40%`), so a CI log stays readable.
 */
export function progressOn(stream: OutputStream): Progress {
  let last = '';
  let drawn = false;
  return {
    update(label, percent) {
      const pct = percent === null ? null : Math.max(0, Math.min(100, Math.round(percent)));
      const plain = pct === null ? label : `${label} ${pct}%`;
      if (plain === last) return;
      last = plain;
      if (!stream.isTTY) {
        stream.write(`${plain}\n`);
        return;
      }
      const filled = pct === null ? 0 : Math.round((pct / 100) * BAR_WIDTH);
      const bar = pct === null ? '' : ` [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${pct}%`;
      stream.write(`\r\x1b[2K${label}${bar}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
