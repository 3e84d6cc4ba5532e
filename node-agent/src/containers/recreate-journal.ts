// The recreate journal: a ReconfigureContainer that stops and parks the old container cannot
// be undone in-process when the agent itself dies (SIGKILL, power loss) halfway. Before it
// touches anything it writes what it is about to do to disk, durably; the agent's next start
// reads the records left behind and puts the container back (recoverRecreates, reconfigure.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../errors.js';

/** One recreate in progress, as written before the old container is committed and stopped. */
export interface RecreateRecord {
  containerId: string;
  /** Docker's id of the old container: it survives the rename that parks it. */
  oldDockerId: string;
  /** The new container's generation (its label); the old one has generation - 1. */
  generation: number;
  /** The name the old container is parked under (`gpucloud-<id>-superseded-<generation>`). */
  parkedName: string;
  wasRunning: boolean;
  /** The commit the new container is created from. */
  commitRef: string;
  /** The old container's image when it was an earlier commit: it goes once the switch is done. */
  supersededImage?: string;
}

/** The journal's folder in the agent's state dir (--state-dir). */
export const RECREATES_DIR = 'recreates';

/** One file per container (`<container id>.json`, root-only), written whole or not at all. */
export class RecreateJournal {
  constructor(readonly dir: string) {}

  file(containerId: string): string {
    return path.join(this.dir, `${containerId}.json`);
  }

  /** Writes the record and fsyncs it and its folder: on disk before the caller goes on. */
  async write(record: RecreateRecord): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.file(record.containerId);
    const tmp = `${file}.tmp`;
    const handle = await fs.open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(record)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
    await this.syncDir();
  }

  /** Removes the record (none: nothing to do). */
  async remove(containerId: string): Promise<void> {
    await fs.rm(this.file(containerId), { force: true });
    // A record that comes back after a power loss would undo a finished recreate's bookkeeping.
    await this.syncDir().catch(() => undefined);
  }

  /**
   * The records left behind. A file that cannot be read as one is reported to `onBad` and
   * skipped; a temp file is a write the agent died in, before it touched the container.
   */
  async list(onBad: (file: string, problem: string) => void = () => undefined): Promise<RecreateRecord[]> {
    const names = await fs.readdir(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    const records: RecreateRecord[] = [];
    for (const name of names.sort()) {
      const file = path.join(this.dir, name);
      if (name.endsWith('.json.tmp')) {
        await fs.rm(file, { force: true });
        continue;
      }
      if (!name.endsWith('.json')) continue;
      try {
        records.push(parseRecord(await fs.readFile(file, 'utf8')));
      } catch (err) {
        onBad(file, errorMessage(err));
      }
    }
    return records;
  }

  private async syncDir(): Promise<void> {
    const dir = await fs.open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}

function parseRecord(text: string): RecreateRecord {
  const r = JSON.parse(text) as Record<string, unknown>;
  const str = (key: string) => {
    const value = r[key];
    if (typeof value !== 'string' || !value) throw new Error(`no ${key} in the record`);
    return value;
  };
  if (typeof r.generation !== 'number' || !Number.isInteger(r.generation) || r.generation < 1) {
    throw new Error('no generation in the record');
  }
  return {
    containerId: str('containerId'),
    oldDockerId: str('oldDockerId'),
    generation: r.generation,
    parkedName: str('parkedName'),
    wasRunning: r.wasRunning === true,
    commitRef: str('commitRef'),
    ...(typeof r.supersededImage === 'string' && r.supersededImage
      ? { supersededImage: r.supersededImage }
      : {}),
  };
}
