// The console's structure, checked over its source (docs/architecture.md): features do not import
// each other in loops (what two features share lives in lib/ or components/), query keys come
// from lib/query-keys.ts, and every request goes through lib/api-client.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));
const FEATURES = path.join(SRC, 'features');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const files = sourceFiles(SRC).map((full) => ({ full, text: readFileSync(full, 'utf8') }));
const featureOf = (full: string) =>
  full.startsWith(`${FEATURES}${path.sep}`) ? path.relative(FEATURES, full).split(path.sep)[0] : undefined;

/** feature → the other features it imports. */
function featureGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { full, text } of files) {
    const from = featureOf(full);
    if (!from) continue;
    for (const m of text.matchAll(/from '(\.[^']+)'/g)) {
      const to = featureOf(path.normalize(path.join(path.dirname(full), m[1] as string)));
      if (to && to !== from) {
        const edges = graph.get(from) ?? new Set<string>();
        edges.add(to);
        graph.set(from, edges);
      }
    }
  }
  return graph;
}

/** Every loop of the graph, as a path that comes back to its start. */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const visit = (node: string, trail: string[]) => {
    for (const next of graph.get(node) ?? []) {
      if (next === trail[0]) found.push([...trail, next].join(' → '));
      else if (!trail.includes(next) && next > (trail[0] as string)) visit(next, [...trail, next]);
    }
  };
  for (const start of graph.keys()) visit(start, [start]);
  return found;
}

describe('the structure of the console', () => {
  it('finds the features and their imports (a check over nothing would pass)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(featureGraph().get('containers')?.has('billing')).toBe(true);
  });

  it('no feature imports another in a loop', () => {
    expect(cycles(featureGraph())).toEqual([]);
  });

  it('detects a loop where there is one', () => {
    const loop = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycles(loop)).toEqual(['a → b → c → a']);
  });

  it('query keys come from lib/query-keys.ts only', () => {
    const own = files
      .filter(({ full }) => /query-keys\.ts$/.test(full))
      .map(({ full }) => path.relative(SRC, full));
    expect(own).toEqual([path.join('lib', 'query-keys.ts')]);
  });

  it('every request goes through lib/api-client.ts (no fetch of its own)', () => {
    const own = files
      .filter(({ full, text }) => !full.endsWith(path.join('lib', 'api-client.ts')) && /\bfetch\(/.test(text))
      .map(({ full }) => path.relative(SRC, full));
    expect(own).toEqual([]);
  });
});
