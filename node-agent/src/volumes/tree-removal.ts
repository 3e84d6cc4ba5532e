// Removing a volume's directory tree with a running count, so the console can show 删除中 n% for
// a volume of millions of files: first the tree is measured (entries and bytes), then removed
// entry by entry, bottom up, counting what is gone. Symlinks are removed, never followed.

import type { Dirent, Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../errors.js';

/** Entries (files, links, directories; the root not counted) and the bytes of the non-directories. */
export interface TreeCount {
  entries: number;
  bytes: number;
}

/** Unlinks run this many at a time inside one directory. */
const PARALLEL_UNLINKS = 32;

const code = (err: unknown) => (err as { code?: unknown }).code;
/** A file or folder that is not there (ENOENT): removed meanwhile. */
export const isMissing = (err: unknown) => code(err) === 'ENOENT';

/** Calls `report` with a count that moved, at most every `intervalMs` unless `final`. */
function throttled(report: (count: TreeCount) => void, intervalMs: number) {
  let lastAt = 0;
  let told: TreeCount | undefined;
  return (count: TreeCount, final = false) => {
    if (told && told.entries === count.entries && told.bytes === count.bytes) return;
    const now = Date.now();
    if (!final && now - lastAt < intervalMs) return;
    lastAt = now;
    told = { ...count };
    report({ ...count });
  };
}

async function readdirOrEmpty(dir: string): Promise<Dirent[]> {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return []; // removed meanwhile
    throw err;
  }
}

/** The entry's own stat (a link is not followed), or undefined where it is not there. */
export async function lstatOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(p);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/** What is under `root`, counted without following symlinks; `report` hears the count as it grows. */
export async function measureTree(
  root: string,
  report: (count: TreeCount) => void,
  intervalMs = 200,
): Promise<TreeCount> {
  const count: TreeCount = { entries: 0, bytes: 0 };
  const tell = throttled(report, intervalMs);
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    const entries = await readdirOrEmpty(dir);
    for (const entry of entries) {
      count.entries++;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else count.bytes += (await lstatOrUndefined(full))?.size ?? 0;
    }
    tell(count);
  }
  tell(count, true);
  return count;
}

/** Says which entry could not be removed and why, relative to the volume (the user sees it). */
function removalError(root: string, target: string, err: unknown): AgentError {
  const relative = path.relative(root, target) || '.';
  const why = code(err) ? String(code(err)) : err instanceof Error ? err.message : String(err);
  return new AgentError(
    'FAILED_PRECONDITION',
    `存储卷中的 ${relative} 无法删除 (${why}), 其余数据可能已删除`,
    { cause: err },
  );
}

/**
 * Removes `root` and everything under it, bottom up; `report` hears the entries and bytes removed
 * so far. Entries that are already gone count as removed (a second delete of the same tree, or
 * one picking up after a restart, ends the same way).
 */
export async function removeTree(
  root: string,
  report: (removed: TreeCount) => void,
  intervalMs = 200,
): Promise<TreeCount> {
  const removed: TreeCount = { entries: 0, bytes: 0 };
  const tell = throttled(report, intervalMs);
  const stack: { dir: string; listed: boolean }[] = [{ dir: root, listed: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { dir: string; listed: boolean };
    if (!top.listed) {
      top.listed = true;
      const entries = await readdirOrEmpty(top.dir);
      const leaves = entries.filter((e) => !e.isDirectory());
      for (let i = 0; i < leaves.length; i += PARALLEL_UNLINKS) {
        await Promise.all(
          leaves.slice(i, i + PARALLEL_UNLINKS).map(async (entry) => {
            const full = path.join(top.dir, entry.name);
            const size = (await lstatOrUndefined(full))?.size ?? 0;
            try {
              await fs.unlink(full);
            } catch (err) {
              if (!isMissing(err)) throw removalError(root, full, err);
            }
            removed.entries++;
            removed.bytes += size;
          }),
        );
        tell(removed);
      }
      for (const entry of entries) {
        if (entry.isDirectory()) stack.push({ dir: path.join(top.dir, entry.name), listed: false });
      }
      continue;
    }
    stack.pop();
    try {
      await fs.rmdir(top.dir);
    } catch (err) {
      if (!isMissing(err)) throw removalError(root, top.dir, err);
    }
    if (top.dir !== root) removed.entries++;
    tell(removed);
  }
  tell(removed, true);
  return removed;
}
