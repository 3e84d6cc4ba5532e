import type { ImageCompareReply, ImageContents, PackageDiff, PackageVersion } from './contract.js';

/** pip and conda treat case (and - versus _) as the same name. */
const key = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

/** What `b` adds, removes and changes against `a`, each sorted by name; null where either has no list. */
export function diffPackages(a: PackageVersion[] | null, b: PackageVersion[] | null): PackageDiff | null {
  if (!a || !b) return null;
  const before = new Map(a.map((p) => [key(p.name), p]));
  const after = new Map(b.map((p) => [key(p.name), p]));
  const diff: PackageDiff = { added: [], removed: [], changed: [] };
  for (const [k, p] of after) {
    const old = before.get(k);
    if (!old) diff.added.push(p);
    else if (old.version !== p.version) diff.changed.push({ name: p.name, from: old.version, to: p.version });
  }
  for (const [k, p] of before) if (!after.has(k)) diff.removed.push(p);
  const byName = (x: { name: string }, y: { name: string }) => key(x.name).localeCompare(key(y.name));
  diff.added.sort(byName);
  diff.removed.sort(byName);
  diff.changed.sort(byName);
  return diff;
}

const base = (c: ImageContents) => `${c.base.image}@${c.base.digest}`;

/** The scalar facts of two images that differ (os, python, cuda, cudnn, base). */
function factDiffs(a: ImageContents | null, b: ImageContents | null): ImageCompareReply['facts'] {
  const facts: [string, (c: ImageContents) => string | null][] = [
    ['os', (c) => c.os?.pretty_name ?? null],
    ['python', (c) => c.python],
    ['cuda', (c) => c.cuda],
    ['cudnn', (c) => c.cudnn],
    ['base', base],
  ];
  return facts.flatMap(([what, of]) => {
    const x = a ? of(a) : null;
    const y = b ? of(b) : null;
    return x === y ? [] : [{ what, a: x, b: y }];
  });
}

interface Named {
  id: number;
  name: string;
  tag: string;
  contents: ImageContents | null;
}

/** GET /api/images/compare: what `b` has that `a` has not, list by list. */
export function compareImages(a: Named, b: Named): ImageCompareReply {
  return {
    a: { id: a.id, name: a.name, tag: a.tag },
    b: { id: b.id, name: b.name, tag: b.tag },
    facts: factDiffs(a.contents, b.contents),
    pip: diffPackages(a.contents?.pip ?? null, b.contents?.pip ?? null),
    conda: diffPackages(a.contents?.conda ?? null, b.contents?.conda ?? null),
    apt: diffPackages(a.contents?.apt ?? null, b.contents?.apt ?? null),
  };
}
