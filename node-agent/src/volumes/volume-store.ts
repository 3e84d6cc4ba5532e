// User volumes: plain directories <volume-root>/<owner_id>/<name> on the host, bind-mounted
// into containers. Names are checked against a strict pattern and every path component the
// agent controls must be a real directory (no symlinks), so no request can reach outside the root.

import type { Dirent, Stats } from 'node:fs';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AgentError, failedPrecondition, invalidArgument, notFound } from '../errors.js';
import { isMissing, lstatOrUndefined, measureTree, removeTree } from './tree-removal.js';

export const VOLUME_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const OWNER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface VolumeInfo {
  ownerId: string;
  name: string;
  hostPath: string;
  sizeBytes: number;
  createdAtMs: number;
}

/**
 * A delete under way: `measuring` while the totals still grow, then `deleting` with what is gone
 * of them. Entries are files, links and directories.
 */
export interface VolumeDeleteProgress {
  phase: 'measuring' | 'deleting';
  entriesDone: number;
  entriesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

interface RunningDelete {
  listeners: Set<(progress: VolumeDeleteProgress) => void>;
  last: VolumeDeleteProgress | undefined;
  done: Promise<boolean>;
}

/** Tells which container (by platform id) uses a volume, if any. */
export type VolumeUsageCheck = (ownerId: string, name: string) => Promise<string | undefined>;

export function checkVolumeName(name: string, what = 'volume name'): string {
  if (!VOLUME_NAME_PATTERN.test(name)) {
    throw invalidArgument(`卷名称不合法 (${what} must be 1-64 letters, digits, _ or -, got "${name}")`);
  }
  return name;
}

export function checkOwnerId(ownerId: string): string {
  if (!OWNER_ID_PATTERN.test(ownerId)) {
    throw invalidArgument(`owner id must be 1-64 letters, digits, _ or -, got "${ownerId}"`);
  }
  return ownerId;
}

/** Bytes of the files under `dir`, walking without following symlinks. */
export async function treeSize(dir: string): Promise<number> {
  let total = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(current, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) continue; // removed while we walked
      throw err;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        pending.push(full);
        continue;
      }
      const st = await lstatOrUndefined(full);
      if (st && (st.isFile() || st.isSymbolicLink())) total += st.size;
    }
  }
  return total;
}

export class VolumeStore {
  private realRoot: string | undefined;
  /** Deletes under way, by `owner/name`: a second delete of the same volume follows the first. */
  private readonly deletes = new Map<string, RunningDelete>();

  constructor(
    private readonly root: string,
    private readonly usage?: VolumeUsageCheck,
    /** A delete's progress is told at most this often. */
    private readonly progressIntervalMs = 200,
  ) {}

  /** Creates the root when missing and pins its real path. */
  async init(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true, mode: 0o711 });
    this.realRoot = await fs.realpath(this.root);
  }

  private async rootPath(): Promise<string> {
    if (!this.realRoot) await this.init();
    return this.realRoot!;
  }

  /** The directory of a volume after checking names and that no component is a symlink. */
  private async locate(
    ownerId: string,
    name: string,
  ): Promise<{ ownerDir: string; dir: string; stat?: Stats }> {
    const root = await this.rootPath();
    const ownerDir = path.join(root, checkOwnerId(ownerId));
    const dir = path.join(ownerDir, checkVolumeName(name));
    if (path.dirname(dir) !== ownerDir || path.dirname(ownerDir) !== root) {
      throw invalidArgument('volume path escapes the volume root');
    }
    const ownerStat = await lstatOrUndefined(ownerDir);
    if (ownerStat && !ownerStat.isDirectory()) {
      throw failedPrecondition(
        `the owner directory ${ownerDir} is not a plain directory (symlinks are refused)`,
      );
    }
    const stat = ownerStat ? await lstatOrUndefined(dir) : undefined;
    if (stat && !stat.isDirectory()) {
      throw failedPrecondition(`卷 ${name} 不是普通目录 (${dir} is a symlink or file; refused)`);
    }
    return { ownerDir, dir, ...(stat ? { stat } : {}) };
  }

  private async info(
    ownerId: string,
    name: string,
    dir: string,
    stat: Stats,
    withSize: boolean,
  ): Promise<VolumeInfo> {
    return {
      ownerId,
      name,
      hostPath: dir,
      sizeBytes: withSize ? await treeSize(dir) : 0,
      createdAtMs: Math.floor(stat.birthtimeMs > 0 ? stat.birthtimeMs : stat.ctimeMs),
    };
  }

  async create(ownerId: string, name: string): Promise<VolumeInfo> {
    const { ownerDir, dir, stat } = await this.locate(ownerId, name);
    if (stat) throw new AgentError('ALREADY_EXISTS', `卷 ${name} 已存在 (volume ${name} already exists)`);
    await fs.mkdir(ownerDir, { recursive: true, mode: 0o711 });
    try {
      await fs.mkdir(dir, { mode: 0o755 });
    } catch (err) {
      if ((err as { code?: unknown }).code === 'EEXIST') {
        throw new AgentError('ALREADY_EXISTS', `卷 ${name} 已存在 (volume ${name} already exists)`);
      }
      throw err;
    }
    return this.info(ownerId, name, dir, await fs.lstat(dir), false);
  }

  private async refuseInUse(ownerId: string, name: string, action: string): Promise<void> {
    const user = this.usage ? await this.usage(ownerId, name) : undefined;
    if (user) throw failedPrecondition(`卷 ${name} 正被容器 ${user} 使用, 无法${action} (volume in use)`);
  }

  private refuseDeleting(ownerId: string, name: string): void {
    if (this.deletes.has(`${ownerId}/${name}`)) {
      throw failedPrecondition(`卷 ${name} 正在删除 (volume is being deleted)`);
    }
  }

  /**
   * Deletes a volume: measures it, then removes it bottom up (symlinks removed, never followed);
   * false when there was no such volume. A delete of a volume being deleted follows the one under
   * way. `listen.onProgress` hears how far it is (the last news at once when joining); aborting
   * `listen.signal` stops the hearing only: the delete goes on, and is whole when a later call
   * answers.
   */
  async delete(
    ownerId: string,
    name: string,
    listen: { onProgress?: (progress: VolumeDeleteProgress) => void; signal?: AbortSignal } = {},
  ): Promise<boolean> {
    const key = `${checkOwnerId(ownerId)}/${checkVolumeName(name)}`;
    let running = this.deletes.get(key);
    if (!running) {
      const { dir, stat } = await this.locate(ownerId, name);
      if (!stat) return this.deletes.get(key)?.done ?? false;
      if (!this.deletes.has(key)) await this.refuseInUse(ownerId, name, '删除');
      running = this.deletes.get(key) ?? this.startDelete(key, dir);
    }
    const { onProgress, signal } = listen;
    if (!onProgress || signal?.aborted) return running.done;
    running.listeners.add(onProgress);
    const stop = () => running.listeners.delete(onProgress);
    signal?.addEventListener('abort', stop, { once: true });
    if (running.last) onProgress(running.last);
    try {
      return await running.done;
    } finally {
      stop();
      signal?.removeEventListener('abort', stop);
    }
  }

  private startDelete(key: string, dir: string): RunningDelete {
    const running: RunningDelete = { listeners: new Set(), last: undefined, done: Promise.resolve(false) };
    const tell = (progress: VolumeDeleteProgress) => {
      running.last = progress;
      for (const listener of running.listeners) listener(progress);
    };
    running.done = (async () => {
      try {
        const total = await measureTree(
          dir,
          (count) =>
            tell({
              phase: 'measuring',
              entriesDone: 0,
              entriesTotal: count.entries,
              bytesDone: 0,
              bytesTotal: count.bytes,
            }),
          this.progressIntervalMs,
        );
        await removeTree(
          dir,
          (removed) =>
            tell({
              phase: 'deleting',
              entriesDone: Math.min(removed.entries, total.entries),
              entriesTotal: total.entries,
              bytesDone: Math.min(removed.bytes, total.bytes),
              bytesTotal: total.bytes,
            }),
          this.progressIntervalMs,
        );
        return true;
      } catch (err) {
        if (err instanceof AgentError) throw err;
        throw failedPrecondition(`删除存储卷失败 (${err instanceof Error ? err.message : String(err)})`, err);
      } finally {
        this.deletes.delete(key);
      }
    })();
    // Every caller awaits `done`; this keeps a failure nobody hears any more from going unhandled.
    running.done.catch(() => undefined);
    this.deletes.set(key, running);
    return running;
  }

  async rename(ownerId: string, name: string, newName: string): Promise<VolumeInfo> {
    const from = await this.locate(ownerId, name);
    if (!from.stat) throw notFound(`卷 ${name} 不存在 (volume ${name} does not exist)`);
    const to = await this.locate(ownerId, checkVolumeName(newName, 'new volume name'));
    if (to.stat)
      throw new AgentError('ALREADY_EXISTS', `卷 ${newName} 已存在 (volume ${newName} already exists)`);
    this.refuseDeleting(ownerId, name);
    await this.refuseInUse(ownerId, name, '重命名');
    await fs.rename(from.dir, to.dir);
    return this.info(ownerId, newName, to.dir, await fs.lstat(to.dir), false);
  }

  async usageOf(ownerId: string, name: string): Promise<VolumeInfo> {
    const { dir, stat } = await this.locate(ownerId, name);
    if (!stat) throw notFound(`卷 ${name} 不存在 (volume ${name} does not exist)`);
    return this.info(ownerId, name, dir, stat, true);
  }

  /** Volumes of one owner, or of all owners when `ownerId` is empty; sizes included. */
  async list(ownerId: string): Promise<VolumeInfo[]> {
    const root = await this.rootPath();
    const owners = ownerId
      ? [checkOwnerId(ownerId)]
      : (await fs.readdir(root, { withFileTypes: true }))
          .filter((e) => e.isDirectory() && OWNER_ID_PATTERN.test(e.name))
          .map((e) => e.name);
    const volumes: VolumeInfo[] = [];
    for (const owner of owners.sort()) {
      let entries: Dirent[];
      try {
        entries = await fs.readdir(path.join(root, owner), { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) continue;
        throw err;
      }
      for (const entry of entries.filter((e) => e.isDirectory() && VOLUME_NAME_PATTERN.test(e.name))) {
        const dir = path.join(root, owner, entry.name);
        volumes.push(await this.info(owner, entry.name, dir, await fs.lstat(dir), true));
      }
    }
    return volumes.sort((a, b) => a.ownerId.localeCompare(b.ownerId) || a.name.localeCompare(b.name));
  }

  /** The host directory to bind-mount for a container's volume; it must exist. */
  async mountSource(ownerId: string, name: string): Promise<string> {
    const { dir, stat } = await this.locate(ownerId, name);
    if (!stat) throw notFound(`卷 ${name} 不存在, 请先创建 (volume ${name} does not exist on this node)`);
    this.refuseDeleting(ownerId, name);
    await fs.access(dir, constants.R_OK);
    return dir;
  }
}
