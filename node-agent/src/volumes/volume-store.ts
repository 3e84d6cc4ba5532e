// User volumes: plain directories <volume-root>/<owner_id>/<name> on the host, bind-mounted
// into containers. Names are checked against a strict pattern and every path component the
// agent controls must be a real directory (no symlinks), so no request can reach outside the root.

import type { Dirent, Stats } from 'node:fs';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AgentError, failedPrecondition, invalidArgument, notFound } from '../errors.js';

export const VOLUME_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const OWNER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface VolumeInfo {
  ownerId: string;
  name: string;
  hostPath: string;
  sizeBytes: number;
  createdAtMs: number;
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

function isMissing(err: unknown): boolean {
  return (err as { code?: unknown }).code === 'ENOENT';
}

async function lstatOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(p);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
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

  constructor(
    private readonly root: string,
    private readonly usage?: VolumeUsageCheck,
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

  /** False when there was no such volume. */
  async delete(ownerId: string, name: string): Promise<boolean> {
    const { dir, stat } = await this.locate(ownerId, name);
    if (!stat) return false;
    await this.refuseInUse(ownerId, name, '删除');
    // rm removes symlinks inside the tree, never what they point to.
    await fs.rm(dir, { recursive: true, force: true });
    return true;
  }

  async rename(ownerId: string, name: string, newName: string): Promise<VolumeInfo> {
    const from = await this.locate(ownerId, name);
    if (!from.stat) throw notFound(`卷 ${name} 不存在 (volume ${name} does not exist)`);
    const to = await this.locate(ownerId, checkVolumeName(newName, 'new volume name'));
    if (to.stat)
      throw new AgentError('ALREADY_EXISTS', `卷 ${newName} 已存在 (volume ${newName} already exists)`);
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
    await fs.access(dir, constants.R_OK);
    return dir;
  }
}
